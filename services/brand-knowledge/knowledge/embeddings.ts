import OpenAI from "openai";
import { stemEnglish } from "../../../shared/text/stem";
import { COMMON_WORDS } from "../../../shared/text/stopwords";
import { tokenize } from "../../../shared/text/tokenize";
import { hash32 } from "../../../shared/hash32";

/**
 * Turns texts into L2-normalised vectors, so that the cosine of two vectors is their dot product.
 * `id` names the model and its dimensions: vectors are only comparable with vectors of the same id,
 * so stored vectors whose id differs from the query embedder's must be re-embedded.
 */
export interface Embedder {
  id: string;
  dimensions: number;
  /** One vector per text, in order. tokensIn is the provider's metered input; 0 for offline embedders. */
  embed(texts: string[]): Promise<{ vectors: number[][]; tokensIn: number }>;
}

export function l2Normalize(vector: number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  if (sum === 0) return vector;
  const inv = 1 / Math.sqrt(sum);
  return vector.map((x) => x * inv);
}

/** Cosine similarity; 0 when either vector is all zeros (an empty text). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export interface OpenAIEmbedderOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** The model's vector size (e.g. 1536 for text-embedding-3-small); every response is checked against it. */
  dimensions: number;
  /** Inputs per request; 64 chunks of ~300 tokens stay far below providers' per-request token limits. */
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

/** Any OpenAI-compatible `/embeddings` endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp, TEI). */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly batchSize: number;

  constructor(options: OpenAIEmbedderOptions) {
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.batchSize = Math.max(1, options.batchSize ?? 64);
    this.id = `openai-compatible:${options.model}:${options.dimensions}`;
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      timeout: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
    });
  }

  async embed(texts: string[]): Promise<{ vectors: number[][]; tokensIn: number }> {
    const vectors: number[][] = texts.map(() => new Array<number>(this.dimensions).fill(0));
    // Providers reject empty inputs; an empty text keeps the zero vector, which matches nothing.
    const pending = texts.flatMap((text, i) => (text.trim() ? [i] : []));
    let tokensIn = 0;
    for (let start = 0; start < pending.length; start += this.batchSize) {
      const batch = pending.slice(start, start + this.batchSize);
      // Floats explicitly: the SDK otherwise asks for base64, which not every compatible server speaks.
      const response = await this.client.embeddings.create({
        model: this.model,
        input: batch.map((i) => texts[i]),
        encoding_format: "float",
      });
      if (response.data.length !== batch.length) {
        throw new Error(`embedding endpoint returned ${response.data.length} vectors for ${batch.length} inputs`);
      }
      for (const item of response.data) {
        const target = batch[item.index];
        if (target === undefined || item.embedding.length !== this.dimensions) {
          throw new Error(`embedding endpoint returned an item with index ${item.index} and ${item.embedding.length} dimensions; expected ${this.dimensions}`);
        }
        vectors[target] = l2Normalize(Array.from(item.embedding));
      }
      tokensIn += response.usage?.prompt_tokens ?? 0;
    }
    return { vectors, tokensIn };
  }
}

const COMMON_STEMS: ReadonlySet<string> = new Set([...COMMON_WORDS].map(stemEnglish));
const BIGRAM_WEIGHT = 0.6;
const TRIGRAM_WEIGHT = 0.3;

/**
 * Fixed IDF approximation: without corpus statistics at embedding time (chunk and query vectors are made
 * independently), stopwords are already gone, frequent everyday words count half, bare numbers 0.7,
 * every other term 1.
 */
function termWeight(term: string): number {
  if (COMMON_STEMS.has(term)) return 0.5;
  return /^[\d.,]+$/.test(term) ? 0.7 : 1;
}

export interface HashedEmbedderOptions {
  /** Vector size; 1024 keeps hash collisions rare for chunk-sized texts. */
  dimensions?: number;
  lang?: string;
}

/**
 * An offline, deterministic LEXICAL embedding, not a semantic model: it knows nothing of synonyms or meaning,
 * only shared words. Features are stemmed unigrams, bigrams of consecutive terms (word order and compounds:
 * "bank feed") and character trigrams of each term (spelling variants and partial matches), each weighted by
 * sublinear term frequency (1 + ln tf) times the fixed IDF approximation above, then hashed into `dimensions`
 * buckets with a sign bit (signed feature hashing: collisions cancel out on average instead of piling up)
 * and L2-normalised.
 */
export class HashedTfIdfEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly lang: string;

  constructor(options: HashedEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 1024;
    if (!Number.isInteger(this.dimensions) || this.dimensions < 16) throw new Error("dimensions must be an integer of at least 16");
    this.lang = options.lang ?? "en";
    this.id = `hashed-tfidf-v1:${this.dimensions}`;
  }

  async embed(texts: string[]): Promise<{ vectors: number[][]; tokensIn: number }> {
    return { vectors: texts.map((t) => this.embedOne(t)), tokensIn: 0 };
  }

  embedOne(text: string): number[] {
    const features = new Map<string, { count: number; weight: number }>();
    const add = (key: string, weight: number) => {
      const found = features.get(key);
      if (found) found.count++;
      else features.set(key, { count: 1, weight });
    };
    const terms = tokenize(text, this.lang);
    terms.forEach((term, i) => {
      const weight = termWeight(term);
      add(`w:${term}`, weight);
      if (i > 0) add(`b:${terms[i - 1]} ${term}`, BIGRAM_WEIGHT * Math.min(weight, termWeight(terms[i - 1])));
      const padded = `#${term}#`;
      for (let j = 0; j + 3 <= padded.length; j++) add(`c:${padded.slice(j, j + 3)}`, TRIGRAM_WEIGHT * weight);
    });

    const vector = new Array<number>(this.dimensions).fill(0);
    for (const [key, { count, weight }] of features) {
      const h = hash32(key);
      vector[h % this.dimensions] += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(count)) * weight;
    }
    return l2Normalize(vector);
  }
}
