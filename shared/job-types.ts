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

/** The stages of a job type whose one action runs them all, keys kept literal (`ArticleStageKey`). */
function runBy<const K extends string>(action: string, stages: readonly { key: K; label: string; optional?: boolean; after?: NoInfer<K>[] }[]): (StageSpec & { key: K })[] {
  return stages.map((s) => ({ ...s, action }));
}

/**
 * Every job type's stages, in the order a reader sees them, what each needs first (`after`), the action that runs each one, and who is told of the end: declared
 * here once. The pipeline's engine queues and runs them, the article stage runner implements exactly these
 * keys, and the articles service acknowledges a job with them.
 */
export const JOB_TYPE_SPECS = {
  ingest_source: {
    onFinish: "brand-knowledge.ingestFinished",
    stages: runBy(INGEST_STAGE, [
      { key: "crawl", label: "Fetching pages" },
      { key: "extract", label: "Extracting readable text" },
      { key: "chunk", label: "Splitting into chunks" },
      { key: "contextualize", label: "Situating chunks in their documents" },
      { key: "embed", label: "Embedding chunks" },
      { key: "index", label: "Indexing for retrieval" },
      { key: "refresh", label: "Refreshing fact sheet and voice profile" },
    ]),
  },
  article: {
    // The articles service queues the stages that are not optional, plus image and derivatives only when requested.
    complete: ARTICLE_COMPLETE,
    stages: runBy(ARTICLE_STAGE, [
      { key: "recon", label: "Understanding the topic and brand" },
      { key: "plan", label: "Planning the outline" },
      { key: "research", label: "Researching sources" },
      // Sections are drafted while the search metadata is written (both from the outline and the evidence);
      // the cover needs only the title, the social posts the finished article. docs/article-pipeline.md has the graph.
      { key: "draft", label: "Writing the draft", after: ["research"] },
      { key: "edit", label: "Editing and checking citations", after: ["draft"] },
      { key: "seo", label: "Optimizing for search", after: ["research"] },
      { key: "score", label: "Scoring quality", after: ["edit", "seo"] },
      { key: "image", label: "Creating the cover image", optional: true, after: ["seo"] },
      { key: "derivatives", label: "Writing social posts and newsletter", optional: true, after: ["score"] },
    ]),
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

/** The keys stage `key` needs done before it starts: its declared `after`, or the stage declared before it. */
export function stageNeeds(type: JobType, key: string): string[] {
  const all = jobTypeSpec(type).stages;
  const i = all.findIndex((s) => s.key === key);
  if (i < 0) throw new Error(`no stage ${key} in job type ${type}`);
  return all[i].after ?? (i > 0 ? [all[i - 1].key] : []);
}

export function stageSpec(type: JobType, key: string): StageSpec {
  const spec = jobTypeSpec(type).stages.find((s) => s.key === key);
  if (!spec) throw new Error(`no stage ${key} in job type ${type}`);
  return spec;
}
