import type { JobType, StageSpec } from "./schemas/jobs";

const INGEST_STAGE = "brand-knowledge.runIngestStage";
/** The article job's handlers: they run in the pipeline's own process (called in-process, not over the broker). */
export const ARTICLE_STAGE = "pipeline.articleStage";
export const ARTICLE_COMPLETE = "pipeline.completeArticle";

export interface JobTypeSpec {
  stages: StageSpec[];
  /** Told once, durably, when a job of this type ends (any terminal status), before its event is written. */
  onFinish?: string;
  /**
   * Called once every stage is done, with the job's input and state: turns them into the job's
   * result (e.g. stores the article). Idempotent on the job id; a failure fails the job.
   */
  complete?: string;
}

/**
 * Every job type's stages, in order, the action that runs each one, and who is told of the end: declared
 * here once. The pipeline's engine queues and runs them, the article stage runner implements exactly these
 * keys, and the articles service acknowledges a job with them.
 */
export const JOB_TYPE_SPECS = {
  ingest_source: {
    onFinish: "brand-knowledge.ingestFinished",
    stages: [
      { key: "crawl", label: "Fetching pages", action: INGEST_STAGE },
      { key: "extract", label: "Extracting readable text", action: INGEST_STAGE },
      { key: "chunk", label: "Splitting into chunks", action: INGEST_STAGE },
      { key: "contextualize", label: "Situating chunks in their documents", action: INGEST_STAGE },
      { key: "embed", label: "Embedding chunks", action: INGEST_STAGE },
      { key: "index", label: "Indexing for retrieval", action: INGEST_STAGE },
      { key: "refresh", label: "Refreshing fact sheet and voice profile", action: INGEST_STAGE },
    ],
  },
  article: {
    // The articles service queues the stages that are not optional, plus image and derivatives only when requested.
    complete: ARTICLE_COMPLETE,
    stages: [
      { key: "recon", label: "Understanding the topic and brand", action: ARTICLE_STAGE },
      { key: "plan", label: "Planning the outline", action: ARTICLE_STAGE },
      { key: "research", label: "Researching sources", action: ARTICLE_STAGE },
      { key: "draft", label: "Writing the draft", action: ARTICLE_STAGE },
      { key: "edit", label: "Editing and checking citations", action: ARTICLE_STAGE },
      { key: "seo", label: "Optimizing for search", action: ARTICLE_STAGE },
      { key: "score", label: "Scoring quality", action: ARTICLE_STAGE },
      { key: "image", label: "Creating the cover image", action: ARTICLE_STAGE, optional: true },
      { key: "derivatives", label: "Writing social posts and newsletter", action: ARTICLE_STAGE, optional: true },
    ],
  },
} satisfies Partial<Record<JobType, JobTypeSpec>>;

/** The stage keys of the article job, as declared above. */
export type ArticleStageKey = (typeof JOB_TYPE_SPECS.article.stages)[number]["key"];

export function jobTypeSpec(type: JobType): JobTypeSpec {
  const spec = (JOB_TYPE_SPECS as Partial<Record<JobType, JobTypeSpec>>)[type];
  if (!spec) throw new Error(`no stages declared for job type ${type}`);
  return spec;
}

export function stagesOf(type: JobType, only?: string[]): StageSpec[] {
  const all = jobTypeSpec(type).stages;
  if (!only) return all;
  const unknown = only.filter((k) => !all.some((s) => s.key === k));
  if (unknown.length) throw new Error(`unknown stages for ${type}: ${unknown.join(", ")}`);
  return all.filter((s) => only.includes(s.key));
}

export function stageSpec(type: JobType, key: string): StageSpec {
  const spec = jobTypeSpec(type).stages.find((s) => s.key === key);
  if (!spec) throw new Error(`no stage ${key} in job type ${type}`);
  return spec;
}
