import http from "node:http";
import type { AddressInfo } from "node:net";
import { splitSentences } from "../../shared/text/segment";

/**
 * A local OpenAI-compatible server speaking the real wire formats of the three endpoints the platform uses
 * (shapes as in OpenAI's API reference and the official `openai` SDK's types):
 *
 * - `POST /v1/chat/completions` → `{id, object: "chat.completion", created, model, choices: [{index, message:
 *   {role: "assistant", content, refusal: null}, logprobs: null, finish_reason: "stop"}], usage: {prompt_tokens,
 *   completion_tokens, total_tokens}}`
 * - `POST /v1/embeddings` → `{object: "list", data: [{object: "embedding", index, embedding}], model, usage:
 *   {prompt_tokens, total_tokens}}` (base64 when `encoding_format: "base64"`, as the SDK asks by default)
 * - `POST /v1/images/generations` → `{created, data: [{b64_json, revised_prompt}]}` (`url` is not served)
 *
 * Errors use OpenAI's envelope `{error: {message, type, param, code}}`. Tests script the chat answers with a
 * responder over the request (by prompt content, or failing N times), set a fixed delay, and read the log.
 */

export interface ChatMessage {
  role: string;
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: string };
  [key: string]: unknown;
}

/** What a responder answers: the content (usage estimated from lengths), content with explicit usage, or an HTTP error. */
export type ChatReply =
  | string
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { status: number; message?: string; headers?: Record<string, string> };

export type ChatResponder = (request: ChatRequest, callNumber: number) => ChatReply | Promise<ChatReply>;

export interface LoggedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
  /** When the request arrived and when its answer was sent (ms since epoch). */
  receivedAt: number;
  answeredAt?: number;
  status?: number;
  /** The usage a successful chat answer reported. */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface FakeOpenAIOptions {
  chat?: ChatResponder;
  /** Every answer (success or error) is sent after this many milliseconds. */
  delayMs?: number;
  embeddingDimensions?: number;
  /** The image bytes `/v1/images/generations` returns (default: a 1×1 PNG). */
  image?: Buffer;
}

export interface FakeOpenAI {
  /** The base URL to configure (LLM_BASE_URL, IMAGES_BASE_URL): ends with /v1. */
  baseURL: string;
  requests: LoggedRequest[];
  chatRequests(): LoggedRequest[];
  setChat(responder: ChatResponder): void;
  setDelay(ms: number): void;
  close(): Promise<void>;
}

/** A 1×1 transparent PNG. */
export const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** OpenAI's rough rule: about four characters per token of English. */
const estimateTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

const STATUS_TEXT: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Bad Request" },
  401: { type: "invalid_request_error", message: "Incorrect API key provided" },
  429: { type: "requests", message: "Rate limit reached" },
  500: { type: "server_error", message: "Internal Server Error" },
  503: { type: "server_error", message: "Service Unavailable" },
};

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** A deterministic unit vector per text, so equal texts embed equally. */
function pseudoEmbedding(text: string, dimensions: number): number[] {
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619) >>> 0;
  const v = Array.from({ length: dimensions }, (_, i) => Math.sin(seed + i * 12.9898) * 43758.5453 % 1);
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  let chat: ChatResponder = options.chat ?? (() => "OK");
  let delayMs = options.delayMs ?? 0;
  const dimensions = options.embeddingDimensions ?? 8;
  const image = options.image ?? TINY_PNG;
  const requests: LoggedRequest[] = [];
  let chatCalls = 0;
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", async () => {
      const entry: LoggedRequest = { method: req.method ?? "", path: req.url ?? "", authorization: req.headers.authorization, body: undefined, receivedAt: Date.now() };
      requests.push(entry);
      const answer = (status: number, body: unknown, headers?: Record<string, string>) => {
        const send = () => {
          entry.answeredAt = Date.now();
          entry.status = status;
          if (!res.destroyed) sendJson(res, status, body, headers);
        };
        if (!delayMs) return send();
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, delayMs);
        timers.add(t);
      };
      try {
        entry.body = raw ? JSON.parse(raw) : undefined;
      } catch {
        return answer(400, { error: { message: "We could not parse the JSON body of your request.", type: "invalid_request_error", param: null, code: null } });
      }
      const body = entry.body;
      if (req.method !== "POST") return answer(405, { error: { message: "Method not allowed", type: "invalid_request_error", param: null, code: null } });

      if (req.url === "/v1/chat/completions") {
        if (!body?.model || !Array.isArray(body.messages)) return answer(400, { error: { message: "'model' and 'messages' are required", type: "invalid_request_error", param: null, code: null } });
        let reply: ChatReply;
        try {
          reply = await chat(body as ChatRequest, ++chatCalls);
        } catch (err) {
          reply = { status: 500, message: (err as Error).message };
        }
        if (typeof reply === "object" && "status" in reply) {
          const known = STATUS_TEXT[reply.status] ?? { type: "server_error", message: "Error" };
          return answer(reply.status, { error: { message: reply.message ?? known.message, type: known.type, param: null, code: null } }, reply.headers);
        }
        const content = typeof reply === "string" ? reply : reply.content;
        const prompt = (body.messages as ChatMessage[]).map((m) => m.content).join("\n");
        const usage = typeof reply === "object" && reply.usage ? reply.usage : { prompt_tokens: estimateTokens(prompt), completion_tokens: estimateTokens(content) };
        entry.usage = usage;
        return answer(200, {
          id: `chatcmpl-fake${chatCalls}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" }],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        });
      }

      if (req.url === "/v1/embeddings") {
        const inputs: string[] = Array.isArray(body?.input) ? body.input : [body?.input ?? ""];
        const data = inputs.map((text, index) => {
          const vector = pseudoEmbedding(String(text), body?.dimensions ?? dimensions);
          const embedding = body?.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
          return { object: "embedding", index, embedding };
        });
        const tokens = inputs.reduce((n, t) => n + estimateTokens(String(t)), 0);
        return answer(200, { object: "list", data, model: body?.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
      }

      if (req.url === "/v1/images/generations") {
        if (!body?.prompt) return answer(400, { error: { message: "'prompt' is required", type: "invalid_request_error", param: "prompt", code: null } });
        return answer(200, { created: Math.floor(Date.now() / 1000), data: [{ b64_json: image.toString("base64"), revised_prompt: body.prompt }] });
      }

      answer(404, { error: { message: `Unknown request URL: POST ${req.url}`, type: "invalid_request_error", param: null, code: "unknown_url" } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path === "/v1/chat/completions"),
    setChat(responder) {
      chat = responder;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/* ------------------------------------------------------------------------------------------------------------
 * A responder that plays every model role of the article pipeline, recognising each prompt by its system
 * message, and writing sections from the evidence quotes it is given (so its claims are supported unless a
 * test asks otherwise). Used by the article e2e tests and the pipeline benchmark.
 * ---------------------------------------------------------------------------------------------------------- */

export interface ArticleResponderOptions {
  /** A sentence (citing the first passage) added to the first body section: the edit stage must remove it. */
  unsupportedClaim?: string;
}

const field = (text: string, label: string) => new RegExp(`^${label}: (.+)$`, "m").exec(text)?.[1]?.trim() ?? "";

/** A passage's sentences as a model reads them: "e.g.," and "0.190" end none (the project's splitter, which knows them). */
function sentencesOf(text: string): string[] {
  return splitSentences(text).map((s) => s.text.trim()).filter((s) => /[.!?]["”»)]*$/.test(s) && s.split(/\s+/).length >= 6);
}

/**
 * Writes a section the way a careful model would: the sentences of the passages it was given, in the order
 * given, each with its marker, up to the budget, leaving out passages marked as cited by earlier sections.
 */
function writeSection(user: string, unsupported: string | undefined): string {
  const budget = Number(/Length: about (\d+) words/.exec(user)?.[1] ?? 150);
  const passages = [...user.matchAll(/^\[(e\d+)\] \([^)]*\)( \(cited earlier\))? (.+)$/gm)].map((m) => ({ id: m[1], fresh: !m[2], sentences: sentencesOf(m[3]) }));
  const lines: string[] = [];
  let words = 0;
  // Like a model that reads the earlier sections, it does not retell passages they cited (unless nothing else is left).
  const usable = passages.some((p) => p.fresh) ? passages.filter((p) => p.fresh) : passages;
  for (const { id, sentences } of usable) {
    for (const sentence of sentences) {
      if (words >= budget) break;
      lines.push(`${sentence} [${id}]`);
      words += sentence.split(/\s+/).length;
    }
  }
  // Into the first body section (the outline below names it "…: the essentials"), whichever order sections are written in.
  if (unsupported && /^Section heading: .*: the essentials$/m.test(user) && passages[0]) {
    lines.splice(1, 0, `${unsupported} [${passages[0].id}]`);
  }
  const paragraphs: string[] = [];
  for (let i = 0; i < lines.length; i += 3) paragraphs.push(lines.slice(i, i + 3).join(" "));
  return paragraphs.join("\n\n");
}

export function articleModelResponder(opts: ArticleResponderOptions = {}): ChatResponder {
  return (request) => {
    const system = request.messages.find((m) => m.role === "system")?.content ?? "";
    const user = request.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
    if (system.startsWith("You plan long-form articles")) {
      return JSON.stringify({ search_intent: "informational", angle: `A practical guide to ${field(user, "Topic")} for busy operations teams.` });
    }
    if (system.startsWith("You outline long-form articles")) {
      const count = Number(/Write (\d+) body sections/.exec(user)?.[1] ?? 4);
      const keyword = field(user, "Target keyword");
      const headings = [`${keyword}: the essentials`, "Clustering jobs by area", "Arrival windows customers trust", "Emergency calls and spare capacity", "Matching skills to jobs", "Measuring what matters", "Tools for technicians", "Keeping parts on the van"];
      return JSON.stringify({ sections: headings.slice(0, count).map((heading) => ({ heading, brief: `Explain ${heading.toLowerCase()} with the evidence.` })) });
    }
    if (system.startsWith("You write one section")) return writeSection(user, opts.unsupportedClaim);
    // A grader that finds every passage and strip relevant: the lexical model still filters the strips (relevance/model.ts).
    if (system.startsWith("You grade retrieved passages") || system.startsWith("You grade strips")) {
      return JSON.stringify({ grades: [...user.matchAll(/^(?:Passage|Strip) ([es]\d+) /gm)].map((m) => ({ id: m[1], grade: "relevant" })) });
    }
    if (system.startsWith("You check citations")) {
      const pairs = [...user.matchAll(/^Pair (\d+)\nCLAIM: (.+)$/gm)];
      return JSON.stringify({ verdicts: pairs.map((m) => ({ id: Number(m[1]), supported: !(opts.unsupportedClaim && m[2].includes(opts.unsupportedClaim.slice(0, 30))) })) });
    }
    if (system.startsWith("You write search metadata")) {
      const keyword = field(user, "Target keyword");
      const cap = keyword.charAt(0).toUpperCase() + keyword.slice(1);
      return JSON.stringify({
        title: `${cap}: a field guide for dispatchers`,
        title_variants: [`${cap} without the guesswork`, `How to get ${keyword} right`, `${cap}: what works`],
        meta_description: `${cap}: how dispatchers cut drive time, keep arrival windows and handle emergencies, with sources.`,
        faq_questions: [`How much drive time can ${keyword} save?`, "How long should arrival windows be?", "How should teams handle emergency calls?"],
      });
    }
    if (system.startsWith("You turn an article into social posts")) {
      const title = field(user, "Title");
      return JSON.stringify({ x_thread: [`1/2 ${title}`, "2/2 Clustering jobs by area cuts driving."], linkedin: `${title}\n\nClustering jobs by area cuts driving.`, newsletter: { subject: title.slice(0, 60), body: "Clustering jobs by area cuts driving." } });
    }
    return "OK";
  };
}

/* ------------------------------------------------------------------------------------------------------------
 * A model that misbehaves the ways real ones do, on top of the article responder: it invents a claim, cites an
 * id and an address it was not given, writes a section about something else, answers in another language, and
 * says "supported" to every citation it is asked to check (its own included).
 * ---------------------------------------------------------------------------------------------------------- */

export interface MisbehaviourOptions {
  /** A sentence with a figure no passage states, cited to the first passage of the first body section. */
  inventedClaim?: string;
  /** An address the evidence does not have, written into the prose with an unknown id ([e999]). */
  fabricatedAddress?: string;
  /** A section (by heading) written about something else, citing a passage it was given. */
  offTopicSection?: { heading: string; text: string };
  /** Sections written in German: only the first section's first attempt ("once"), or every attempt ("always"). */
  wrongLanguage?: "once" | "always";
  /** Answer "supported" to every citation check. */
  approveEverything?: boolean;
}

const GERMAN_SECTION = "Die Routenplanung entscheidet, wie viel Zeit ein Techniker am Tag mit Fahren verbringt [e1]. Teams, die Aufträge nach Gebieten bündeln, sparen jeden Tag viele Minuten [e1].";

export function misbehavingArticleResponder(opts: MisbehaviourOptions): ChatResponder {
  const base = articleModelResponder();
  let germanSent = false;
  return (request, n) => {
    const system = request.messages.find((m) => m.role === "system")?.content ?? "";
    const user = request.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
    if (system.startsWith("You check citations") && opts.approveEverything) {
      const pairs = [...user.matchAll(/^Pair (\d+)\n/gm)];
      return JSON.stringify({ verdicts: pairs.map((m) => ({ id: Number(m[1]), supported: true })) });
    }
    if (system.startsWith("You write one section")) {
      const heading = field(user, "Section heading");
      const asksForLanguage = /Write in \w+ only/.test(system);
      if (opts.wrongLanguage === "always" || (opts.wrongLanguage === "once" && !germanSent && !asksForLanguage)) {
        germanSent = true;
        return GERMAN_SECTION;
      }
      const ids = [...user.matchAll(/^\[(e\d+)\]/gm)].map((m) => m[1]);
      if (opts.offTopicSection && heading === opts.offTopicSection.heading && ids[0]) return `${opts.offTopicSection.text} [${ids[0]}]`;
      let text = String(base(request, n));
      const firstBody = heading.endsWith(": the essentials");
      if (opts.inventedClaim && firstBody && ids[0]) text = `${opts.inventedClaim} [${ids[0]}] ${text}`;
      if (opts.fabricatedAddress && heading === "Clustering jobs by area") text = `${text}\n\nThe full study is at ${opts.fabricatedAddress} [e999].`;
      return text;
    }
    return base(request, n);
  };
}

/* ------------------------------------------------------------------------------------------------------------
 * A model with no domain of its own, for the article-quality bench's model run: it answers every call of the
 * pipeline from what the prompt gives it, in the prompt's language, the way a careful model would.
 * ---------------------------------------------------------------------------------------------------------- */

/**
 * - plan: informational; outline: the target keyword as the first heading, then the knowledge base's subjects the
 *   prompt lists (fewer than asked makes the pipeline keep its own plan, as a short answer does);
 * - sections: the sentences of the passages given (`writeSection`);
 * - grades: "relevant" for a passage whose title, heading or text (a strip whose text) holds the subject as written, else
 *   "ambiguous" (the lexical model then decides), like a reader skimming for the subject's name;
 * - citations: supported; search metadata: the topic as the title, variants made of the topic and keyword, and
 *   of the FAQ passages shown, the question a definition ("X is …") or a procedure ("To X, …") answers, in the
 *   prompt's language (`askOfPassages`), the rest skipped; social posts: the title and the first claim.
 */
/** What a model asks of a passage, by language: of a definition what its subject is, of a procedure how to do it. */
const ASKS: Record<string, { defines: RegExp; what: (subject: string, verb: string) => string; procedure?: RegExp; how?: (act: string) => string }> = {
  English: { defines: /^((?:The|An?) [\p{L}\p{N}-]+(?: [\p{L}\p{N}-]+){0,3}) (is|are) /u, what: (x, v) => `What ${v} ${x}?`, procedure: /^To ([^,]{5,80}), /u, how: (a) => `How do you ${a}?` },
  French: { defines: /^((?:Le |La |Les |L['’])?[\p{L}\p{N}-]+(?: [\p{L}\p{N}-]+){0,3}) (est|sont) /u, what: (x) => `Qu'est-ce que ${x} ?`, procedure: /^Pour ([^,]{5,80}), /u, how: (a) => `Comment ${a} ?` },
  German: { defines: /^((?:Der|Die|Das) [\p{L}\p{N}-]+(?: [\p{L}\p{N}-]+){0,2}) (ist|sind) /u, what: (x, v) => `Was ${v} ${x}?` },
  Spanish: { defines: /^((?:El|La|Los|Las) [\p{L}\p{N}-]+(?: [\p{L}\p{N}-]+){0,3}) (es|son) /u, what: (x, v) => `¿Qué ${v} ${x}?` },
};

/** The FAQ a careful model writes of the passages a search-metadata prompt shows (`f1: …`): the questions they answer. */
function askOfPassages(system: string, user: string): { passage: string; question: string }[] {
  const asks = ASKS[/FAQ: .*? write that question in (\w+)/.exec(system)?.[1] ?? "English"] ?? ASKS.English;
  // A determiner goes to lower case after the question word; a name keeps its capital.
  const lower = (x: string) => (/^(The|An?|Le|La|Les|L['’]|Der|Die|Das|El|Los|Las)\b/u.test(x) ? x.charAt(0).toLowerCase() + x.slice(1) : x);
  return [...user.matchAll(/^(f\d+): (.+)$/gm)].flatMap((m) => {
    const definition = asks.defines.exec(m[2]);
    if (definition) return [{ passage: m[1], question: asks.what(lower(definition[1]), definition[2]) }];
    const procedure = asks.procedure?.exec(m[2]);
    return procedure && asks.how ? [{ passage: m[1], question: asks.how(procedure[1]) }] : [];
  });
}

export function documentModelResponder(): ChatResponder {
  return (request) => {
    const system = request.messages.find((m) => m.role === "system")?.content ?? "";
    const user = request.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
    const keyword = field(user, "Target keyword");
    const topic = field(user, "Topic") || field(user, "Article topic");
    const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    if (system.startsWith("You plan long-form articles")) return JSON.stringify({ search_intent: "informational", angle: `A practical guide to ${topic}.` });
    if (system.startsWith("You outline long-form articles")) {
      const count = Number(/Write (\d+) body sections/.exec(user)?.[1] ?? 4);
      const themes = (/^Subjects the brand's knowledge base covers near this topic: (.+)$/m.exec(user)?.[1] ?? "").split("; ").filter(Boolean);
      const headings = [cap(keyword), ...themes.filter((t) => t.toLowerCase() !== keyword.toLowerCase())].slice(0, count);
      return JSON.stringify({ sections: headings.map((heading) => ({ heading, brief: `What the evidence says about ${heading}.` })) });
    }
    if (system.startsWith("You write one section")) return writeSection(user, undefined);
    if (system.startsWith("You grade retrieved passages") || system.startsWith("You grade strips")) {
      const subject = field(user, "Subject").toLowerCase();
      const items = [...user.matchAll(/^(?:Passage|Strip) ([es]\d+) \(([^\n]*)\):\n([\s\S]*?)(?=\n(?:Passage|Strip) [es]\d+ \(|$)/gm)];
      // A strip is read for itself (the prompt says a heading naming the subject does not make it relevant).
      const about = (m: RegExpMatchArray) => (m[1].startsWith("s") ? m[3] : `${m[2]} ${m[3]}`).toLowerCase().includes(subject);
      return JSON.stringify({ grades: items.map((m) => ({ id: m[1], grade: about(m) ? "relevant" : "ambiguous" })) });
    }
    if (system.startsWith("You check citations")) {
      return JSON.stringify({ verdicts: [...user.matchAll(/^Pair (\d+)\n/gm)].map((m) => ({ id: Number(m[1]), supported: true })) });
    }
    if (system.startsWith("You write search metadata")) {
      return JSON.stringify({ title: cap(topic), title_variants: [`${cap(keyword)}`, `${cap(topic)} (${keyword})`, `${cap(keyword)}: ${topic}`], meta_description: "", faq: askOfPassages(system, user) });
    }
    if (system.startsWith("You turn an article into social posts")) {
      const title = field(user, "Title");
      const claim = /^- (.+?)(?: \(https?:[^)]*\))?$/m.exec(user)?.[1] ?? title;
      return JSON.stringify({ x_thread: [`1/2 ${title}`, `2/2 ${claim}`], linkedin: `${title}\n\n${claim}`, newsletter: { subject: title.slice(0, 60), body: claim } });
    }
    return "OK";
  };
}
