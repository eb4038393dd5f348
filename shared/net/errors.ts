/**
 * Why an outbound request to a user-supplied URL produced no usable response. `code` is stable
 * for callers (delivery records, crawl skip reasons); `message` is safe to show a user: it names
 * the URL the user gave or was redirected to, never an address a name resolved to.
 */
export class OutboundRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly url: string | undefined,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Refused by the URL guard at connect or redirect time ("blocked by URL guard"). */
export class ForbiddenUrlError extends OutboundRequestError {
  /** The resolved address that was refused, for logs only. */
  readonly address: string | undefined;

  constructor(message: string, opts: { url?: string; address?: string } = {}) {
    super("EFORBIDDENADDRESS", `blocked by URL guard: ${message}`, opts.url);
    this.address = opts.address;
  }
}

export class FetchTimeoutError extends OutboundRequestError {
  constructor(url: string, timeoutMs: number) {
    super("ETIMEDOUT", `${url}: no complete response within ${timeoutMs} ms`, url);
  }
}

/** The caller's AbortSignal stopped the request. */
export class FetchAbortedError extends OutboundRequestError {
  constructor(url: string) {
    super("EABORTED", `${url}: request aborted`, url);
  }
}

export class TooLargeError extends OutboundRequestError {
  constructor(url: string, readonly maxBytes: number) {
    super("ETOOLARGE", `${url}: response body exceeds ${maxBytes} bytes`, url);
  }
}

export class UnsupportedContentTypeError extends OutboundRequestError {
  constructor(url: string, readonly contentType: string) {
    super("EUNSUPPORTEDCONTENTTYPE", `${url}: content type ${contentType || "(none)"} is not accepted`, url);
  }
}

export class TooManyRedirectsError extends OutboundRequestError {
  constructor(url: string, readonly maxRedirects: number) {
    super("ETOOMANYREDIRECTS", `${url}: more than ${maxRedirects} redirects`, url);
  }
}

/** DNS, connection and protocol failures, with the low-level error kept as `cause` for logs. */
export class FetchNetworkError extends OutboundRequestError {
  constructor(url: string, problem: string, cause: unknown) {
    super("EFETCHFAILED", `${url}: ${problem}`, url);
    this.cause = cause;
  }
}
