import type { Db } from "mongodb";
import type { Clock } from "../../shared/clock";
import { ValidationError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import type { GeneratedArticle, GeneratedArticleResult } from "../../shared/schemas/articles";
import { INITIAL_ARTICLE_STATUS } from "./lifecycle";
import { storeCoverImage } from "./media";
import { renderArticleHtml } from "./render";
import { isDuplicateKeyError } from "../../shared/db/duplicate-key";
import { articleCollections, type ArticleDoc } from "./store";

/** The article job's `result`: `citations` is how many the article cites. */
export function generatedResultOf(doc: ArticleDoc): GeneratedArticleResult {
  return { article_id: doc._id, title: doc.title, word_count: doc.word_count, quality_score: doc.quality_score, citations: doc.citations.length };
}

function sameJobOfSameOrg(doc: ArticleDoc, generated: GeneratedArticle): ArticleDoc {
  if (doc.org_id !== generated.org_id) throw new ValidationError("job_id: already produced an article of another organization");
  return doc;
}

/**
 * Stores what an article job produced, once per job: saving the same job again (the pipeline
 * retries after a crash) returns the article stored the first time.
 */
export async function saveGeneratedArticle(db: Db, generated: GeneratedArticle, clock: Clock): Promise<GeneratedArticleResult> {
  const c = articleCollections(db);
  const earlier = await c.articles.findOne({ job_id: generated.job_id });
  if (earlier) return generatedResultOf(sameJobOfSameOrg(earlier, generated));

  const now = clock.now();
  const doc: ArticleDoc = {
    _id: newId(),
    org_id: generated.org_id,
    job_id: generated.job_id,
    status: INITIAL_ARTICLE_STATUS,
    mode: generated.mode,
    language: generated.language,
    topic: generated.topic,
    target_keyword: generated.target_keyword,
    brand_profile_id: generated.brand_profile_id,
    title: generated.title,
    slug: generated.slug,
    content_markdown: generated.content_markdown,
    content_html: renderArticleHtml(generated.content_markdown),
    meta_title: generated.meta_title,
    meta_description: generated.meta_description,
    title_variants: generated.title_variants,
    faq: generated.faq,
    json_ld: generated.json_ld,
    citations: generated.citations,
    word_count: generated.word_count,
    read_minutes: generated.read_minutes,
    flesch_score: generated.flesch_score,
    quality_score: generated.quality_score,
    quality_breakdown: generated.quality_breakdown,
    derivatives: generated.derivatives,
    image: await storeCoverImage(c, generated, clock),
    created_at: now,
    updated_at: now,
  };
  try {
    await c.articles.insertOne(doc);
    return generatedResultOf(doc);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    const concurrent = await c.articles.findOne({ job_id: generated.job_id });
    if (!concurrent) throw err;
    return generatedResultOf(sameJobOfSameOrg(concurrent, generated));
  }
}
