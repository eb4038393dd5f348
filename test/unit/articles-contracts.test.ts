import { acknowledgement, articleJobInput, articleStages } from "../../services/articles/create-article";
import { hashArticleRequest } from "../../services/articles/idempotency";
import { canonicalJson } from "../../shared/idempotency";
import { mediaHeaders, mediaUrl } from "../../services/articles/media";
import { publicBaseUrl } from "../../shared/public-url";
import { buildParams } from "../../services/gateway/http-input";
import { API_ROUTES, methodsAt, requiredServices } from "../../services/gateway/routes";
import { toHttpError } from "../../shared/errors";
import { CreateArticleBody, GetArticleQuery, ListArticlesQuery, UpdateArticleBody } from "../../shared/schemas/articles";
import { parseOrThrow } from "../../shared/validation";

const ID = "5f2b6a4e-1111-4111-8111-111111111111";
const jobInput = (body: Record<string, unknown>) => articleJobInput(parseOrThrow(CreateArticleBody, body));
const problem = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    const http = toHttpError(err);
    return `${http.status} ${http.body.error.message}`;
  }
  throw new Error("expected a validation error");
};

describe("article job input and stages", () => {
  it("fills target_keyword with the topic and applies every default", () => {
    expect(jobInput({ topic: "  Composting at home  " })).toEqual({
      topic: "Composting at home",
      target_keyword: "Composting at home",
      mode: "standard",
      language: "en",
      target_words: 1600,
      image: false,
      derivatives: [],
    });
    expect(jobInput({ topic: "Composting at home", target_keyword: "compost" }).target_keyword).toBe("compost");
  });

  it("runs the fixed stages, then image and derivatives only when asked for", () => {
    const fixed = ["recon", "plan", "research", "draft", "edit", "seo", "score"];
    expect(articleStages({ image: false, derivatives: [] })).toEqual(fixed);
    expect(articleStages({ image: true, derivatives: [] })).toEqual([...fixed, "image"]);
    expect(articleStages({ image: false, derivatives: ["linkedin"] })).toEqual([...fixed, "derivatives"]);
    expect(articleStages({ image: true, derivatives: ["x_thread", "newsletter"] })).toEqual([...fixed, "image", "derivatives"]);
  });

  it("acknowledges with the seven fields of the spec", () => {
    expect(acknowledgement(ID, "queued", 13)).toEqual({
      id: ID,
      object: "job",
      type: "article",
      status: "queued",
      credits_charged: 13,
      replayed: false,
      links: { self: `/v1/jobs/${ID}` },
    });
  });
});

describe("idempotency body hash", () => {
  it("writes canonical JSON whatever the key order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: "x" } })).toBe('{"a":{"c":"x","d":[2,{"e":0,"f":1}]},"b":1}');
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });

  it("hashes bodies asking for the same article the same", () => {
    const base = hashArticleRequest(jobInput({ topic: "Composting at home", derivatives: ["linkedin", "x_thread"] }));
    expect(hashArticleRequest(jobInput({ derivatives: ["x_thread", "linkedin"], topic: "Composting at home" }))).toBe(base);
    expect(hashArticleRequest(jobInput({ topic: "Composting at home", mode: "standard", language: "en", target_words: 1600, image: false, derivatives: ["x_thread", "linkedin"], target_keyword: "Composting at home" }))).toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it("hashes any difference differently", () => {
    const base = hashArticleRequest(jobInput({ topic: "Composting at home" }));
    const variants = [
      { topic: "Composting at home!" },
      { topic: "Composting at home", target_keyword: "compost" },
      { topic: "Composting at home", mode: "deep_research" },
      { topic: "Composting at home", language: "de" },
      { topic: "Composting at home", target_words: 1601 },
      { topic: "Composting at home", image: true },
      { topic: "Composting at home", derivatives: ["linkedin"] },
      { topic: "Composting at home", tone: "dry" },
      { topic: "Composting at home", brand_profile_id: ID },
    ];
    const hashes = variants.map((v) => hashArticleRequest(jobInput(v)));
    expect(new Set([base, ...hashes]).size).toBe(variants.length + 1);
  });
});

describe("Idempotency-Key header", () => {
  const create = API_ROUTES.find((r) => r.method === "POST" && r.path === "/articles")!;
  const params = (headers: Record<string, string>) => buildParams(create, { path: {}, query: {}, body: { topic: "Composting at home" }, headers });

  it("is passed to the action when valid, and absent when not sent", () => {
    expect(params({ "idempotency-key": "order-42 / retry #1" }).idempotency_key).toBe("order-42 / retry #1");
    expect(params({ "idempotency-key": "k".repeat(255) }).idempotency_key).toHaveLength(255);
    expect(params({})).not.toHaveProperty("idempotency_key");
  });

  it("is 1 to 255 printable ASCII characters, else a 400 naming the header", () => {
    for (const bad of ["", "k".repeat(256), "caf\u00e9", "tab\there", "nl\u0001"]) {
      expect(problem(() => params({ "idempotency-key": bad }))).toBe("400 Idempotency-Key: must be 1 to 255 printable ASCII characters");
    }
  });
});

describe("article request contracts", () => {
  it("caps the list limit at 50 and refuses 0 and garbage", () => {
    expect(parseOrThrow(ListArticlesQuery, {})).toEqual({ limit: 20 });
    expect(parseOrThrow(ListArticlesQuery, { limit: "50" }).limit).toBe(50);
    expect(parseOrThrow(ListArticlesQuery, { limit: "51" }).limit).toBe(50);
    expect(parseOrThrow(ListArticlesQuery, { limit: "1000", starting_after: ID })).toEqual({ limit: 50, starting_after: ID });
    expect(problem(() => parseOrThrow(ListArticlesQuery, { limit: "0" }))).toBe("400 limit: must be at least 1");
    expect(problem(() => parseOrThrow(ListArticlesQuery, { limit: "ten" }))).toBe("400 limit: must be a whole number");
    expect(problem(() => parseOrThrow(ListArticlesQuery, { starting_after: "x" }))).toBe("400 starting_after: must be a UUID");
  });

  it("accepts format markdown, html or nothing", () => {
    expect(parseOrThrow(GetArticleQuery, {})).toEqual({});
    expect(parseOrThrow(GetArticleQuery, { format: "html" })).toEqual({ format: "html" });
    expect(problem(() => parseOrThrow(GetArticleQuery, { format: "pdf" }))).toBe("400 format: must be 'markdown' or 'html'");
  });

  it("needs at least one field to update, each within its bound", () => {
    expect(problem(() => parseOrThrow(UpdateArticleBody, {}))).toBe("400 body: must contain at least one of title, content_markdown, meta_title, meta_description, status");
    expect(parseOrThrow(UpdateArticleBody, { title: "t".repeat(300), meta_description: "" })).toEqual({ title: "t".repeat(300), meta_description: "" });
    const tooLong = problem(() =>
      parseOrThrow(UpdateArticleBody, {
        title: "t".repeat(301),
        content_markdown: "m".repeat(200001),
        meta_title: "m".repeat(201),
        meta_description: "d".repeat(501),
        status: "archived",
        slug: "x",
      }),
    );
    expect(tooLong.startsWith("400 ")).toBe(true);
    expect(tooLong.slice(4).split("; ").sort()).toEqual(
      [
        "slug: unknown field",
        "content_markdown: must be at most 200000 characters",
        "meta_description: must be at most 500 characters",
        "meta_title: must be at most 200 characters",
        "status: must be one of draft, in_review, approved, published",
        "title: must be at most 300 characters",
      ].sort(),
    );
  });

  it("routes the article endpoints and makes the gateway wait for the articles service", () => {
    expect(methodsAt("/v1/articles").sort()).toEqual(["GET", "POST"]);
    expect(methodsAt(`/v1/articles/${ID}`).sort()).toEqual(["GET", "PATCH"]);
    expect(requiredServices()).toContain("articles");
  });
});

describe("media", () => {
  it("is served from PUBLIC_BASE_URL, else the gateway on localhost", () => {
    expect(mediaUrl(publicBaseUrl({ PUBLIC_BASE_URL: "https://api.example.com/", PORT: 3000 }), ID)).toBe(`https://api.example.com/media/${ID}`);
    expect(mediaUrl(publicBaseUrl({ PORT: 8080 }), ID)).toBe(`http://localhost:8080/media/${ID}`);
  });

  it("is cached forever, never sniffed, and an SVG cannot run script", () => {
    expect(mediaHeaders("image/png")).toEqual({
      "content-type": "image/png",
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
    expect(mediaHeaders("image/svg+xml")["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'");
  });
});
