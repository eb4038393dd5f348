/**
 * A client program written against the client generated from GET /v1/openapi.json (openapi-typescript's
 * `paths`, called through openapi-fetch): every path, parameter, body and answer is typed by the document,
 * so this file type-checks only while the document describes what it uses. It creates a brand profile,
 * adds sources, waits for their ingest, creates an article, polls its job, reads the article, lists
 * articles and moves the article to review, and checks
 * every answer against the document's schema for that operation and status (ajv, JSON Schema 2020-12).
 *
 * Input (argv[2], a JSON file): {baseUrl, apiKey, topic, targetKeyword, sources: [{title, content}]}.
 * Output (stdout): a JSON summary; exits 1 with the reason on any mismatch.
 */
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api";

type Job = components["schemas"]["Job"];
type Article = components["schemas"]["Article"];

interface Input {
  baseUrl: string;
  apiKey: string;
  topic: string;
  targetKeyword: string;
  sources: { title: string; content: string }[];
}

const input = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Input;
const client = createClient<paths>({ baseUrl: input.baseUrl, headers: { authorization: `Bearer ${input.apiKey}` } });

const checked: string[] = [];

async function contractOf() {
  const res = await fetch(`${input.baseUrl}/v1/openapi.json`);
  const doc = (await res.json()) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>; components: unknown };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "https://openapi.local/document.json", components: doc.components });
  /** The answer must be documented for the operation, and its body must match the documented schema. */
  return (method: string, template: string, response: Response, body: unknown) => {
    const documented = doc.paths[template]?.[method]?.responses[String(response.status)];
    if (!documented) throw new Error(`${method.toUpperCase()} ${template}: status ${response.status} is not documented`);
    const schema = documented.content?.["application/json"]?.schema;
    if (!schema) throw new Error(`${method.toUpperCase()} ${template} ${response.status}: no JSON schema`);
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://openapi.local/document.json#/components/')));
    if (!validate(body)) throw new Error(`${method.toUpperCase()} ${template} ${response.status}: ${ajv.errorsText(validate.errors)}`);
    checked.push(`${method.toUpperCase()} ${template} ${response.status}`);
  };
}

/** `data` of a successful answer, after its check; a documented error answer is a failure here. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }, check: () => void): T {
  check();
  if (result.data === undefined) throw new Error(`${result.response.url}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

const FINAL: Job["status"][] = ["succeeded", "failed", "canceled"];

async function main() {
  const check = await contractOf();

  const profileAnswer = await client.POST("/v1/brand-profiles", { body: { name: "Typed client brand", ingest_website: false } });
  const profile = ok(profileAnswer, () => check("post", "/v1/brand-profiles", profileAnswer.response, profileAnswer.data ?? profileAnswer.error));

  const ingestJobs: string[] = [];
  for (const source of input.sources) {
    const added = await client.POST("/v1/brand-profiles/{id}/sources", { params: { path: { id: profile.id } }, body: { type: "text", title: source.title, content: source.content } });
    ingestJobs.push(ok(added, () => check("post", "/v1/brand-profiles/{id}/sources", added.response, added.data ?? added.error)).ingest_job_id);
  }

  async function poll(jobId: string): Promise<Job> {
    for (let i = 0; i < 600; i++) {
      const read = await client.GET("/v1/jobs/{id}", { params: { path: { id: jobId } } });
      const job = ok(read, () => check("get", "/v1/jobs/{id}", read.response, read.data ?? read.error));
      if (FINAL.includes(job.status)) return job;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`job ${jobId} did not finish`);
  }
  const ingested = await Promise.all(ingestJobs.map(poll));

  const created = await client.POST("/v1/articles", {
    body: { topic: input.topic, target_keyword: input.targetKeyword, brand_profile_id: profile.id, target_words: 1000, image: true },
    params: { header: { "Idempotency-Key": `typed-client-${profile.id}` } },
  });
  const acknowledgement = ok(created, () => check("post", "/v1/articles", created.response, created.data ?? created.error));
  const job = await poll(acknowledgement.id);
  const articleId = job.result["article_id"];
  if (typeof articleId !== "string") throw new Error(`job ${job.id} ended ${job.status} without an article: ${job.error}`);

  const read = await client.GET("/v1/articles/{id}", { params: { path: { id: articleId }, query: {} } });
  const article: Article = ok(read, () => check("get", "/v1/articles/{id}", read.response, read.data ?? read.error));
  // Query values are strings on the wire; the document says so (a whole number as digits).
  const list = await client.GET("/v1/articles", { params: { query: { limit: "5" } } });
  const patch = await client.PATCH("/v1/articles/{id}", { params: { path: { id: articleId } }, body: { status: "in_review" } });
  const reviewed = ok(patch, () => check("patch", "/v1/articles/{id}", patch.response, patch.data ?? patch.error));
  const page = ok(list, () => check("get", "/v1/articles", list.response, list.data ?? list.error));

  process.stdout.write(
    JSON.stringify({
      checked,
      ingested: ingested.map((j) => j.status),
      job: { status: job.status, stages: job.stages.map((s) => s.key) },
      article: { id: article.id, title: article.title, status: article.status, image: article.image, citations: article.citations.length, json_ld: article.json_ld },
      reviewed: reviewed.status,
      listed: page.data.map((a) => a.id),
    }) + "\n",
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
