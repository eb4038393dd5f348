import { z } from "zod";
import type { DerivativeKind, Derivatives as DerivativesSchema } from "../../../../shared/schemas/articles";
import { isInLanguage } from "../../../../shared/text/language";
import { dependsOnPrevious } from "../evidence/units";
import type { MeteredModel } from "../model/metered-model";
import { languagePack, fill } from "../language/phrases";
import { truncateAtWord } from "../search/seo";
import { figuresOf } from "../evidence/similarity";
import type { ArticleBody, Evidence, SeoResult } from "../types";

export type ArticleDerivatives = z.output<typeof DerivativesSchema>;

export const X_POST_MAX = 280;
export const LINKEDIN_MAX = 3000;
const THREAD_CLAIMS = 6;
const LINKEDIN_CLAIMS = 8;
const NEWSLETTER_CLAIMS = 6;

/** A claim of the article with the web address of its first source (null for knowledge-base texts without one). */
export interface KeyClaim {
  text: string;
  url: string | null;
}

/**
 * The article's key claims: the first cited sentence of each body section, then the other cited sentences in
 * order; sentences that lean on the one before them ("It works offline…") cannot stand alone in a post.
 */
export function keyClaims(body: ArticleBody, evidence: readonly Evidence[], lang: string): KeyClaim[] {
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const cited = (sentences: { text: string; cites: string[] }[]) => sentences.filter((s) => s.cites.length && !dependsOnPrevious(s.text, lang));
  const leads = body.sections.filter((s) => s.role === "body").flatMap((s) => cited(s.paragraphs.flatMap((p) => p.sentences)).slice(0, 1));
  const rest = body.sections.flatMap((s) => cited(s.paragraphs.flatMap((p) => p.sentences))).filter((s) => !leads.includes(s));
  return [...leads, ...rest].map((s) => {
    const web = s.cites.map((id) => byId.get(id)?.url).find((u) => u && /^https?:\/\//i.test(u));
    return { text: s.text, url: web ?? null };
  });
}

/** A numbered thread: the title first, then one claim per post with its link; claims that do not fit a post whole are skipped, never cut. */
export function buildThread(title: string, claims: readonly KeyClaim[], lang: string): string[] {
  const pack = languagePack(lang);
  const bodies: string[] = [];
  for (const claim of claims) {
    if (bodies.length >= THREAD_CLAIMS) break;
    const text = claim.url ? `${claim.text} ${claim.url}` : claim.text;
    // "n/N " takes at most 6 characters for threads under ten posts.
    if (text.length + 6 <= X_POST_MAX) bodies.push(text);
  }
  const total = bodies.length + 1;
  const opener = truncateAtWord(fill(pack.threadOpener, { T: title }), X_POST_MAX - 6);
  return [opener, ...bodies].map((text, i) => `${i + 1}/${total} ${text}`);
}

/** A LinkedIn post: title, the opening, the key points with their sources, within 3000 characters. */
export function buildLinkedInPost(title: string, opening: string, claims: readonly KeyClaim[], lang: string): string {
  const pack = languagePack(lang);
  let post = `${title}\n\n${opening}\n\n${pack.keyPoints}:`;
  for (const claim of claims.slice(0, LINKEDIN_CLAIMS)) {
    const line = `\n• ${claim.text}${claim.url ? ` (${claim.url})` : ""}`;
    if (post.length + line.length + pack.readMore.length + 2 > LINKEDIN_MAX) break;
    post += line;
  }
  return truncateAtWord(`${post}\n\n${pack.readMore}`, LINKEDIN_MAX);
}

export function buildNewsletter(seo: Pick<SeoResult, "meta_title" | "meta_description">, opening: string, claims: readonly KeyClaim[], lang: string): { subject: string; body: string } {
  const pack = languagePack(lang);
  const points = claims.slice(0, NEWSLETTER_CLAIMS).map((c) => `- ${c.text}${c.url ? ` ([source](${c.url}))` : ""}`);
  return { subject: seo.meta_title, body: [opening, `**${pack.keyPoints}**`, points.join("\n"), pack.readMore].join("\n\n") };
}

const DerivativesAnswer = z.object({
  x_thread: z.array(z.string().min(1)).optional(),
  linkedin: z.string().min(1).optional(),
  newsletter: z.object({ subject: z.string().min(1), body: z.string().min(1) }).optional(),
});

/**
 * Faithful to the article: every figure the text states is one the article states, and every address it
 * links is one the article cites.
 */
export function isFaithful(text: string, articleText: string, citedUrls: ReadonlySet<string>): boolean {
  const figures = figuresOf(articleText);
  if ([...figuresOf(text.replace(/https?:\/\/\S+/g, ""))].some((f) => !figures.has(f) && !/^\d$/.test(f))) return false;
  return [...text.matchAll(/https?:\/\/[^\s)\]]+/g)].every((m) => citedUrls.has(m[0].replace(/[.,;:!?]+$/, "")));
}

export interface DerivativesInput {
  kinds: readonly DerivativeKind[];
  body: ArticleBody;
  seo: SeoResult;
  evidence: readonly Evidence[];
  lang: string;
}

/**
 * derivatives: an X thread (posts ≤ 280 characters, numbered), a LinkedIn post (≤ 3000) and a newsletter
 * (subject and body), only the kinds requested, built from the edited article's cited sentences. With a
 * model, it writes them from the same claims; an answer out of bounds or unfaithful (a figure or link the
 * article does not have) is replaced by the offline version of that kind.
 */
export async function buildDerivatives(input: DerivativesInput, model?: MeteredModel): Promise<{ derivatives: ArticleDerivatives; by: Record<string, "model" | "rules"> }> {
  const { kinds, body, seo, evidence, lang } = input;
  const openingSentences = body.sections[0]?.paragraphs[0]?.sentences.map((s) => s.text) ?? [];
  const opening = openingSentences.join(" ") || seo.meta_description;
  // The opening is quoted whole in the LinkedIn post and the newsletter: its sentences are not key points again.
  const claims = keyClaims(body, evidence, lang).filter((c) => !openingSentences.includes(c.text));
  const offline: ArticleDerivatives = {};
  if (kinds.includes("x_thread")) offline.x_thread = buildThread(seo.title, claims, lang);
  if (kinds.includes("linkedin")) offline.linkedin = buildLinkedInPost(seo.title, opening, claims, lang);
  if (kinds.includes("newsletter")) offline.newsletter = buildNewsletter(seo, opening, claims, lang);
  const by: Record<string, "model" | "rules"> = Object.fromEntries(kinds.map((k) => [k, "rules"]));
  if (!model) return { derivatives: offline, by };

  const pack = languagePack(lang);
  const answer = await model.json(
    [
      {
        role: "system",
        content:
          `You turn an article into social posts in ${pack.name}, using only the claims given and their links. ` +
          `x_thread: numbered posts ("1/N …"), each at most ${X_POST_MAX} characters. linkedin: at most ${LINKEDIN_MAX} characters. newsletter: a subject and a body. ` +
          `Write only these kinds: ${kinds.join(", ")}. Answer with JSON only.`,
      },
      { role: "user", content: [`Title: ${seo.title}`, `Summary: ${seo.meta_description}`, "Claims:", ...claims.slice(0, 12).map((c) => `- ${c.text}${c.url ? ` (${c.url})` : ""}`)].join("\n") },
    ],
    DerivativesAnswer,
    { maxTokens: 1500 },
  );
  if (!answer) return { derivatives: offline, by };
  const articleText = [seo.title, ...body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text)))].join(" ");
  const urls = new Set(claims.flatMap((c) => (c.url ? [c.url] : [])));
  // Faithful to the article, and in its language: otherwise that kind keeps the offline version.
  const faithful = (text: string) => isFaithful(text, articleText, urls) && isInLanguage(text.replace(/https?:\/\/\S+/g, " "), lang, [seo.title]);
  const result: ArticleDerivatives = { ...offline };
  if (kinds.includes("x_thread") && answer.x_thread?.length && answer.x_thread.every((p) => p.length <= X_POST_MAX && faithful(p))) {
    result.x_thread = answer.x_thread;
    by.x_thread = "model";
  }
  if (kinds.includes("linkedin") && answer.linkedin && answer.linkedin.length <= LINKEDIN_MAX && faithful(answer.linkedin)) {
    result.linkedin = answer.linkedin;
    by.linkedin = "model";
  }
  if (kinds.includes("newsletter") && answer.newsletter && faithful(`${answer.newsletter.subject} ${answer.newsletter.body}`)) {
    result.newsletter = answer.newsletter;
    by.newsletter = "model";
  }
  return { derivatives: result, by };
}
