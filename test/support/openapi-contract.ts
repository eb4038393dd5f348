import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { HttpResult } from "./http";

type Json = Record<string, any>;

/**
 * Checks real responses against an OpenAPI 3.1 document: the status must be documented for the operation,
 * the JSON body must match the response's schema, and every header the response documents must be present and match.
 * Schemas are compiled with ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect); `#/components/...` refs resolve in the document.
 */
export class OpenApiContract {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ReturnType<Ajv2020["compile"]>>();

  constructor(private readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: "https://openapi.local/document.json", components: doc.components }, "https://openapi.local/document.json");
  }

  private compile(schema: Json) {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"https://openapi.local/document.json#/components/');
    let fn = this.cache.get(text);
    if (!fn) {
      fn = this.ajv.compile(JSON.parse(text));
      this.cache.set(text, fn);
    }
    return fn;
  }

  private deref(obj: Json): Json {
    if (!obj?.$ref) return obj;
    const parts = String(obj.$ref).replace(/^#\//, "").split("/");
    return parts.reduce((o: Json, p) => o[p], this.doc);
  }

  /** Throws an error naming what disagrees; returns the checked response for chaining. */
  check<T extends HttpResult>(method: string, template: string, res: T): T {
    const operation = this.doc.paths?.[template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`document has no operation ${method} ${template}`);
    const response = operation.responses?.[String(res.status)];
    if (!response) throw new Error(`${method} ${template}: status ${res.status} is not documented (${Object.keys(operation.responses).join(", ")}); body ${res.text}`);
    const where = `${method} ${template} ${res.status}`;
    for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
      const h = this.deref(header);
      const value = res.headers.get(name);
      if (value === null) throw new Error(`${where}: documented header ${name} is missing`);
      if (h.schema) {
        const typed = h.schema.type === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
        const validate = this.compile(h.schema);
        if (!validate(typed)) throw new Error(`${where}: header ${name}=${value}: ${this.ajv.errorsText(validate.errors)}`);
      }
    }
    const media = response.content?.["application/json"];
    if (media) {
      if (!/^application\/json/.test(res.headers.get("content-type") ?? "")) throw new Error(`${where}: content-type ${res.headers.get("content-type")} is not JSON`);
      const validate = this.compile(media.schema);
      if (!validate(res.body)) throw new Error(`${where}: body does not match the document: ${this.ajv.errorsText(validate.errors)}; body ${res.text}`);
    }
    return res;
  }

  /**
   * A webhook request as received, against the document's `webhooks` entry `{surface}.{kind}`: every
   * documented header present and matching, the JSON body matching the request body schema.
   */
  checkWebhook(name: string, headers: Record<string, string>, rawBody: string): void {
    const post = this.doc.webhooks?.[name]?.post;
    if (!post) throw new Error(`document has no webhook ${name}`);
    for (const p of post.parameters ?? []) {
      const value = headers[String(p.name).toLowerCase()];
      if (value === undefined) throw new Error(`webhook ${name}: documented header ${p.name} is missing`);
      const validate = this.compile(p.schema);
      if (!validate(value)) throw new Error(`webhook ${name}: header ${p.name}=${value}: ${this.ajv.errorsText(validate.errors)}`);
    }
    const validate = this.compile(post.requestBody.content["application/json"].schema);
    if (!validate(JSON.parse(rawBody))) throw new Error(`webhook ${name}: body does not match the document: ${this.ajv.errorsText(validate.errors)}; body ${rawBody}`);
  }
}
