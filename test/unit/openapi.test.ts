import SwaggerParser from "@apidevtools/swagger-parser";
import { z } from "zod";
import { CreateArticleBody, ListArticlesQuery } from "../../shared/schemas/articles";
import { EVENT_CATALOG, EVENT_SURFACES } from "../../shared/events/catalog";
import { openApiDocument, openApiJson, ROUTE_ERRORS } from "../../services/gateway/openapi";
import { componentName, SCHEMA_COMPONENTS } from "../../services/gateway/openapi-components";
import { undescribedEventKinds } from "../../services/gateway/openapi-webhooks";
import { ADMIN_ROUTES, API_ROUTES } from "../../services/gateway/routes";

type Json = Record<string, any>;
const fresh = (): Json => JSON.parse(openApiJson());
const op = (doc: Json, method: string, path: string): Json => doc.paths[path][method.toLowerCase()];

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document (swagger-parser)", async () => {
    const doc = fresh();
    expect(doc.openapi).toBe("3.1.0");
    // OpenAPI 3.1's own dialect (JSON Schema 2020-12 with its vocabulary): Swagger UI warns on any other declared dialect.
    expect(doc).not.toHaveProperty("jsonSchemaDialect");
    await expect(SwaggerParser.validate(doc as never)).resolves.toBeDefined();
  });

  it("is refused by the validator when broken, so the check above can fail", async () => {
    const doc = fresh();
    doc.paths["/v1/articles"].post.responses = "none";
    await expect(SwaggerParser.validate(doc as never)).rejects.toThrow();
    const unresolved = fresh();
    unresolved.paths["/v1/articles"].post.responses["400"].content["application/json"].schema = { $ref: "#/components/schemas/Nope" };
    await expect(SwaggerParser.validate(unresolved as never)).rejects.toThrow();
  });

  it("describes every route of the table, with its path parameters and security", () => {
    const doc = fresh();
    for (const [prefix, routes, scheme] of [["/v1", API_ROUTES, "apiKey"], ["/admin", ADMIN_ROUTES, "adminToken"]] as const) {
      for (const r of routes) {
        const o = op(doc, r.method, prefix + r.path.replace(/:([a-z_]+)/g, "{$1}"));
        expect(o).toBeDefined();
        expect(o.operationId).toBe(r.stream ? `${r.action.split(".")[0]}.events` : r.action);
        if (r.stream) expect(Object.keys(o.responses[String(r.status)].content)).toEqual([r.stream]);
        expect(o.security).toEqual([{ [scheme]: [] }]);
        expect(o.responses[String(r.status)]).toBeDefined();
        const names = [...r.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
        expect((o.parameters ?? []).filter((p: Json) => p.in === "path").map((p: Json) => p.name)).toEqual(names);
        if (names.length) expect(o.responses["404"]).toBeDefined();
        expect(Boolean(o.requestBody)).toBe(Boolean(r.body));
        expect(Boolean(o.responses["429"])).toBe(prefix === "/v1");
      }
    }
    const operations = Object.values(doc.paths).flatMap((p) => Object.keys(p as object));
    expect(operations).toHaveLength(API_ROUTES.length + ADMIN_ROUTES.length);
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p as Record<string, Json>).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: "http", scheme: "bearer" }),
      adminToken: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
  });

  it("takes bodies and queries from the gateway's zod contracts", () => {
    const doc = fresh();
    const create = op(doc, "POST", "/v1/articles");
    const fromZod = z.toJSONSchema(CreateArticleBody, { io: "input", target: "draft-2020-12", unrepresentable: "any" }) as Json;
    delete fromZod.$schema;
    expect(create.requestBody.content["application/json"].schema).toEqual(fromZod);
    expect(create.requestBody.required).toBe(true);
    const list = op(doc, "GET", "/v1/articles");
    const queryNames = list.parameters.filter((p: Json) => p.in === "query").map((p: Json) => p.name);
    expect(queryNames.sort()).toEqual(Object.keys((ListArticlesQuery as unknown as z.ZodObject).shape).sort());
    expect(queryNames).toContain("limit");
  });

  it("documents the idempotent create: Idempotency-Key, 202, 200 replay, 402, rate-limit headers", () => {
    const create = op(fresh(), "POST", "/v1/articles");
    expect(create.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: "Idempotency-Key", in: "header", required: false })]));
    expect(Object.keys(create.responses).sort()).toEqual(["200", "202", "400", "401", "402", "404", "413", "415", "429", "500", "503"]);
    expect(Object.keys(create.responses["202"].headers).sort()).toEqual(["idempotency-key", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]);
    // The key comes back on every answer, a 5xx included (docs/failure-semantics.md#idempotency-keys).
    for (const status of ["200", "400", "401", "500", "503"]) expect(create.responses[status].headers["idempotency-key"]).toEqual({ $ref: "#/components/headers/IdempotencyKey" });
    expect(create.responses["503"].description).toContain("outcome_unknown");
    expect(create.responses["429"].headers["retry-after"]).toEqual({ $ref: "#/components/headers/RetryAfter" });
    expect(create.responses["503"].headers["retry-after"]).toBeDefined();
    expect(create.responses["401"].headers["x-ratelimit-limit"]).toBeUndefined();
  });

  it("uses one error envelope whose codes are the catalog's", () => {
    const doc = fresh();
    expect(doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(["invalid_request", "invalid_api_key", "insufficient_credits", "not_found", "rate_limit_exceeded", "publish_failed"]),
    );
    const publish = op(doc, "POST", "/v1/articles/{id}/publish");
    expect(publish.responses["502"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
    const createOrg = op(doc, "POST", "/admin/orgs");
    expect(createOrg.responses["201"].headers.location).toBeDefined();
  });

  it("names only routes that exist in its per-route error list", () => {
    const doc = openApiDocument() as Json;
    for (const key of Object.keys(ROUTE_ERRORS)) {
      const [method, path] = key.split(" ");
      expect(op(doc, method, path)).toBeDefined();
    }
  });
});

describe("OpenAPI responses and webhooks", () => {
  it("is version 1.0.0", () => {
    expect(fresh().info.version).toBe("1.0.0");
  });

  it("gives every success response of every route the schema of the zod contract its service answers with", () => {
    const doc = fresh();
    for (const [prefix, routes] of [["/v1", API_ROUTES], ["/admin", ADMIN_ROUTES]] as const) {
      for (const r of routes) {
        const o = op(doc, r.method, prefix + r.path.replace(/:([a-z_]+)/g, "{$1}"));
        for (const [status, response] of Object.entries(o.responses as Record<string, Json>)) {
          if (Number(status) >= 300 || !response.content) continue;
          if (r.stream) {
            expect(response.content[r.stream].schema.description).toContain(`#/components/schemas/${componentName(r.response)}`);
            continue;
          }
          const name = componentName(r.response);
          expect(response.content["application/json"].schema).toEqual({ $ref: `#/components/schemas/${name}` });
          expect(doc.components.schemas[name]).toBeDefined();
        }
      }
    }
    // No response body is left as a bare object.
    expect(openApiJson()).not.toContain('"schema":{"type":"object"}');
  });

  it("emits each component as zod 4's own JSON Schema of the schema (refs to other components)", () => {
    const doc = fresh();
    const direct = z.toJSONSchema(SCHEMA_COMPONENTS.UsageDay, { target: "draft-2020-12", io: "output" }) as Json;
    delete direct.$schema;
    expect(doc.components.schemas.UsageDay).toEqual(direct);
    expect(doc.components.schemas.Article.properties.publications).toEqual({ type: "array", items: { $ref: "#/components/schemas/ArticlePublication" } });
    expect(doc.components.schemas.Job.properties.stages).toEqual({ type: "array", items: { $ref: "#/components/schemas/JobStage" } });
    expect(doc.components.schemas.ArticleList.properties.data.items).toEqual({ $ref: "#/components/schemas/ArticleSummary" });
  });

  it("describes every event of every surface's catalog as a webhook with the Standard Webhooks headers", () => {
    const doc = fresh();
    expect(undescribedEventKinds()).toEqual([]);
    const expected = EVENT_SURFACES.flatMap((surface) => Object.keys(EVENT_CATALOG[surface]).map((kind) => `${surface}.${kind}`));
    expect(Object.keys(doc.webhooks).sort()).toEqual(expected.sort());
    for (const name of expected) {
      const post = doc.webhooks[name].post;
      expect(post.parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual([
        ["webhook-id", "header", true],
        ["webhook-timestamp", "header", true],
        ["webhook-signature", "header", true],
      ]);
      const body = post.requestBody.content["application/json"].schema;
      expect(body.required).toEqual(["event", "data"]);
      expect(body.properties.event).toEqual({ type: "string", const: name.slice(name.indexOf(".") + 1) });
      expect(post.responses["2XX"]).toBeDefined();
    }
    expect(doc.webhooks["articles.job.succeeded"].post.requestBody.content["application/json"].schema.properties.data.properties.status).toEqual({ type: "string", const: "succeeded" });
  });
});
