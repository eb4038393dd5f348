export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface RequestOptions {
  method?: string;
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One HTTP request with Node's fetch; the body is parsed as JSON when it is JSON. */
export async function request<T = any>(baseUrl: string, path: string, opts: RequestOptions = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(baseUrl + path, { method: opts.method ?? "GET", headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed as T };
}

/** A client bound to a base URL and, optionally, a bearer token. */
export function client(baseUrl: string, token?: string) {
  return <T = any>(path: string, opts: RequestOptions = {}) => request<T>(baseUrl, path, { token, ...opts });
}
