import { countWords, wordsOf } from "../../../../shared/text/segment";
import { checkCitationSupport } from "./citation-check";
import { dependsOnPrevious, hasUnpairedMarks, isBoilerplate, looksLikeCode } from "../evidence/units";
import { relevanceModel } from "../relevance";
import { evidenceById } from "../evidence/passages";
import type { MeteredModel } from "../model/metered-model";
import { sectionWords } from "../writers/section-writer";
import { finishSections } from "../writers/section-grouping";
import { figuresOf, nearDuplicate, termSet } from "../evidence/similarity";
import { applyStyleRewrites } from "./style-rewrites";
import type { ArticleBody, ArticleBrief, ArticleParagraph, ArticleSection, ArticleSentence, Evidence, Outline, PlannedSection } from "../types";

/** A section that keeps less than half its budget after the checks goes back for evidence (once). */
const THIN_SECTION_SHARE = 0.5;
const MAX_FRAMING_WORDS = 30;
const REMOVED_SAMPLE = 10;
const REMOVAL_ORDER: RemovedClaim["reason"][] = ["unsupported", "off_topic", "malformed", "uncited", "dangling", "duplicate"];

export interface EditDeps {
  model?: MeteredModel;
  /**
   * Researches one section again, deeper: the pool with what was found added (as long as before when nothing
   * new was). Absent in unit tests that check the rules alone.
   */
  researchSection?: (section: PlannedSection, evidence: readonly Evidence[]) => Promise<Evidence[]>;
  /** Writes one section again from the pool, beside the others (which it must not repeat). */
  rewriteSection?: (section: PlannedSection, others: readonly ArticleSection[], evidence: readonly Evidence[]) => Promise<ArticleSection>;
}

export interface RemovedClaim {
  section: string;
  claim: string;
  reason: "unsupported" | "off_topic" | "malformed" | "uncited" | "dangling" | "duplicate";
}

export interface EditReport {
  checked_by: "model" | "offline";
  checked: number;
  supported: number;
  removed_unsupported: number;
  removed_off_topic: number;
  removed_uncited: number;
  removed_dangling: number;
  removed_duplicates: number;
  /** Sentences whose quotation marks or brackets do not pair up: cut out of a quotation or a command, not prose. */
  removed_malformed: number;
  phrases_replaced: number;
  tightened: number;
  re_researched: string[];
  /** The re-researched sections that research found something new for, written again (side by side). */
  rewritten: string[];
  dropped_sections: string[];
  /** Sections given the heading of an earlier one, and joined to it (`finishSections`). */
  joined_sections: string[];
  /** Sections split out of "Other points" under their sources' own headings (`finishSections`). */
  split_sections: string[];
  removed: RemovedClaim[];
}

/**
 * An uncited sentence may stay only as framing: short, no figures, and no name (a capitalised word after
 * the first) that the topic, keyword, brand or heading does not already contain. Anything else states a
 * fact without a source and is removed.
 */
export function isFramingSentence(text: string, brief: ArticleBrief, heading: string): boolean {
  if (figuresOf(text).size || countWords(text, brief.language) > MAX_FRAMING_WORDS) return false;
  const known = `${brief.topic} ${brief.keyword} ${brief.brand?.name ?? ""} ${heading} ${brief.audience ?? ""}`.toLowerCase();
  return wordsOf(text, brief.language)
    .slice(1)
    .filter((w) => /^\p{Lu}/u.test(w))
    .every((w) => known.includes(w.toLowerCase()));
}

interface Located {
  section: number;
  paragraph: number;
  sentence: ArticleSentence;
}

function locate(sections: readonly ArticleSection[]): Located[] {
  return sections.flatMap((s, section) => s.paragraphs.flatMap((p, paragraph) => p.sentences.map((sentence) => ({ section, paragraph, sentence }))));
}

/** The sections without their emptied paragraphs. */
function withoutEmpty(sections: ArticleSection[]): ArticleSection[] {
  return sections.map((s) => ({ ...s, paragraphs: s.paragraphs.filter((p) => p.sentences.length) })).filter((s) => s.paragraphs.length);
}

interface PassResult {
  sections: ArticleSection[];
  report: Omit<EditReport, "re_researched" | "rewritten" | "dropped_sections" | "joined_sections" | "split_sections" | "checked_by">;
}

/**
 * Style, repetition, then citations: one pass over `sections`, with `context` (other sections) counting as
 * already said. Style rewrites apply to what a model wrote; the extractive writer's sentences are quotations
 * and keep the source's words (a rewrite could change what they say: "at the end of the day" is sometimes a time).
 */
async function editPass(
  sections: ArticleSection[],
  context: readonly ArticleSection[],
  brief: ArticleBrief,
  evidence: readonly Evidence[],
  rewriteStyle: boolean,
  model?: MeteredModel,
): Promise<PassResult> {
  const lang = brief.language;
  const removed: RemovedClaim[] = [];
  const report = { checked: 0, supported: 0, removed_unsupported: 0, removed_off_topic: 0, removed_uncited: 0, removed_dangling: 0, removed_duplicates: 0, removed_malformed: 0, phrases_replaced: 0, tightened: 0 };
  const drop = new Set<ArticleSentence>();
  const remove = (at: Located, reason: RemovedClaim["reason"]) => {
    drop.add(at.sentence);
    removed.push({ section: sections[at.section].key, claim: at.sentence.text, reason });
  };

  const located = locate(sections);
  for (const { sentence } of rewriteStyle ? located : []) {
    const edit = applyStyleRewrites(sentence.text, brief);
    sentence.text = edit.text;
    report.phrases_replaced += edit.phrasesReplaced;
    report.tightened += edit.tightened;
  }

  const repeats = repeatedSentences(sections, context, lang);
  for (const at of located) {
    if (!repeats.has(at.sentence)) continue;
    remove(at, "duplicate");
    report.removed_duplicates++;
  }

  // A model's sentence whose quotation marks or brackets do not pair up ("… » por «foo» para todos …") was cut
  // out of a quotation or a command: the same rule the evidence's units are held to (`hasUnpairedMarks`). So is
  // one holding a command or boilerplate, which the score counts as a form problem ("(If apt-cacher-ng is used, you
  // should also run "sudo rm -rf …"", from the fake model's package article, capped at 75): it goes here instead.
  const malformed = (text: string) => hasUnpairedMarks(text) || looksLikeCode(text) || isBoilerplate(text, lang);
  for (const at of located) {
    if (drop.has(at.sentence) || !malformed(at.sentence.text)) continue;
    remove(at, "malformed");
    report.removed_malformed++;
  }

  const remaining = located.filter((at) => !drop.has(at.sentence));
  for (const at of remaining.filter((a) => !a.sentence.cites.length)) {
    if (isFramingSentence(at.sentence.text, brief, sections[at.section].heading)) continue;
    remove(at, "uncited");
    report.removed_uncited++;
  }
  const cited = remaining.filter((a) => a.sentence.cites.length);
  const verdicts = await checkCitationSupport(
    cited.map((a) => ({ claim: a.sentence.text, cites: a.sentence.cites })),
    evidenceById(evidence),
    lang,
    model,
  );
  report.checked = cited.length;
  cited.forEach((at, i) => {
    if (verdicts[i].supported) {
      report.supported++;
      at.sentence.cites = verdicts[i].cites;
    } else {
      remove(at, "unsupported");
      report.removed_unsupported++;
    }
  });

  // A cited sentence must be about the topic (`relevance.isAboutSentence`): a model's section about something else goes.
  const relevance = relevanceModel(evidence, brief);
  for (const at of cited) {
    if (drop.has(at.sentence)) continue;
    const heading = sections[at.section].role === "body" ? sections[at.section].heading : "";
    if (relevance.isAboutSentence(at.sentence.text, at.sentence.cites, heading)) continue;
    remove(at, "off_topic");
    report.removed_off_topic++;
  }
  // A sentence that leans on the one before ("This command…") goes when that one went, or when it opens its paragraph.
  sections.forEach((s, section) =>
    s.paragraphs.forEach((p, paragraph) =>
      p.sentences.forEach((sentence, i) => {
        if (drop.has(sentence) || !isDangling(p.sentences, i, drop, lang)) return;
        remove({ section, paragraph, sentence }, "dangling");
        report.removed_dangling++;
      }),
    ),
  );

  const kept = sections.map((s) => ({ ...s, paragraphs: s.paragraphs.map((p) => withoutSentences(p, drop)) }));
  return { sections: withoutEmpty(kept), report: { ...report, removed } };
}

/** The sentences of `sections` that say again what `context`, or an earlier sentence of `sections`, already says. */
function repeatedSentences(sections: readonly ArticleSection[], context: readonly ArticleSection[], lang: string): Set<ArticleSentence> {
  const said = locate(context).map((l) => termSet(l.sentence.text, lang));
  const repeats = new Set<ArticleSentence>();
  for (const { sentence } of locate(sections)) {
    const terms = termSet(sentence.text, lang);
    if (said.some((t) => nearDuplicate(t, terms))) repeats.add(sentence);
    else said.push(terms);
  }
  return repeats;
}

/** A cited sentence that leans on the one before it ("This command…") while that one goes, or that opens its paragraph. The pipeline's own framing leans on nothing. */
function isDangling(sentences: readonly ArticleSentence[], i: number, gone: ReadonlySet<ArticleSentence>, lang: string): boolean {
  const sentence = sentences[i];
  return sentence.cites.length > 0 && dependsOnPrevious(sentence.text, lang) && (i === 0 || gone.has(sentences[i - 1]));
}

/** The paragraph without the sentences that go. */
function withoutSentences(p: ArticleParagraph, gone: ReadonlySet<ArticleSentence>): ArticleParagraph {
  return { sentences: p.sentences.filter((x) => !gone.has(x)) };
}

/**
 * `section` without the sentences `others` already say, and without those that leaned on one of them (each
 * reported with its reason), or undefined when nothing is left.
 */
function withoutRepeatsOf(
  section: ArticleSection,
  others: readonly ArticleSection[],
  lang: string,
  removed: (claim: string, reason: "duplicate" | "dangling") => void,
): ArticleSection | undefined {
  const gone = repeatedSentences([section], others, lang);
  for (const sentence of gone) removed(sentence.text, "duplicate");
  for (const p of section.paragraphs) {
    p.sentences.forEach((sentence, i) => {
      if (gone.has(sentence) || !isDangling(p.sentences, i, gone, lang)) return;
      gone.add(sentence);
      removed(sentence.text, "dangling");
    });
  }
  return withoutEmpty([{ ...section, paragraphs: section.paragraphs.map((p) => withoutSentences(p, gone)) }])[0];
}

/** The cited sentences that are not about the topic against `pool`, removed (with those that leaned on them). */
function dropOffTopic(sections: ArticleSection[], brief: ArticleBrief, pool: readonly Evidence[]): { sections: ArticleSection[]; removed: RemovedClaim[] } {
  const relevance = relevanceModel(pool, brief);
  const removed: RemovedClaim[] = [];
  const out = sections.map((section) => {
    const heading = section.role === "body" ? section.heading : "";
    return {
      ...section,
      paragraphs: section.paragraphs.map((p) => {
        const gone = new Set<ArticleSentence>();
        p.sentences.forEach((x, i) => {
          const offTopic = x.cites.length > 0 && !relevance.isAboutSentence(x.text, x.cites, heading);
          if (!offTopic && !(i > 0 && isDangling(p.sentences, i, gone, brief.language))) return;
          gone.add(x);
          removed.push({ section: section.key, claim: x.text, reason: "off_topic" });
        });
        return withoutSentences(p, gone);
      }),
    };
  });
  return { sections: withoutEmpty(out), removed };
}

function merge(a: PassResult["report"], b: PassResult["report"]): PassResult["report"] {
  return {
    checked: a.checked + b.checked,
    supported: a.supported + b.supported,
    removed_unsupported: a.removed_unsupported + b.removed_unsupported,
    removed_off_topic: a.removed_off_topic + b.removed_off_topic,
    removed_uncited: a.removed_uncited + b.removed_uncited,
    removed_dangling: a.removed_dangling + b.removed_dangling,
    removed_duplicates: a.removed_duplicates + b.removed_duplicates,
    removed_malformed: a.removed_malformed + b.removed_malformed,
    phrases_replaced: a.phrases_replaced + b.phrases_replaced,
    tightened: a.tightened + b.tightened,
    removed: [...a.removed, ...b.removed],
  };
}

/**
 * edit: tightens and applies the brand's voice (model-written prose), removes what the article says twice, and checks every
 * citation against its evidence (the model's entailment verdict when configured, the overlap rule
 * offline). Unsupported and uncited claims are removed, never kept. A body section left with less than
 * half its budget is researched again, and rewritten once when research found something new for it (the
 * same evidence would write the same section); sections left empty are dropped, what no phrase named goes under
 * its sources' own headings, and sections under one heading are joined (`finishSections`).
 */
export async function editArticle(
  body: ArticleBody,
  brief: ArticleBrief,
  outline: Outline,
  evidence: readonly Evidence[],
  deps: EditDeps = {},
): Promise<{ body: ArticleBody; evidence: Evidence[]; report: EditReport }> {
  const lang = brief.language;
  const copy: ArticleSection[] = structuredClone(body.sections);
  const rewriteStyle = body.writer === "model";
  const first = await editPass(copy, [], brief, evidence, rewriteStyle, deps.model);
  let sections = first.sections;
  let report = first.report;
  let pool = [...evidence];
  const reresearched: string[] = [];

  // Thin sections are researched again one after the other (no model: the pool grows in order); those research
  // found something new for are then written again and checked side by side (two round trips however many).
  const thin = outline.sections.filter((planned) => {
    const current = sections.find((s) => s.key === planned.key);
    return planned.role === "body" && (current ? sectionWords(current, lang) : 0) < planned.budget * THIN_SECTION_SHARE;
  });
  const renewed: PlannedSection[] = [];
  for (const planned of deps.researchSection ? thin : []) {
    const found = await deps.researchSection!(planned, pool);
    reresearched.push(planned.key);
    if (found.length > pool.length) renewed.push(planned);
    pool = found;
  }
  const rewrites = await Promise.all(
    (deps.rewriteSection ? renewed : []).map(async (planned) => {
      const others = sections.filter((s) => s.key !== planned.key);
      const second = await editPass([structuredClone(await deps.rewriteSection!(planned, others, pool))], others, brief, pool, rewriteStyle, deps.model);
      return { planned, second };
    }),
  );
  for (const { planned, second } of rewrites) {
    report = merge(report, second.report);
    const current = sections.find((s) => s.key === planned.key);
    // Sections rewritten side by side were each checked against the others as they were before: what an earlier
    // rewrite (now in `sections`) already says goes from this one.
    const others = sections.filter((s) => s.key !== planned.key);
    const rewritten = second.sections[0] && withoutRepeatsOf(second.sections[0], others, lang, (claim, reason) => {
      if (reason === "duplicate") report.removed_duplicates++;
      else report.removed_dangling++;
      report.removed.push({ section: planned.key, claim, reason });
    });
    if (rewritten && sectionWords(rewritten, lang) > (current ? sectionWords(current, lang) : 0)) {
      const order = outline.sections.map((s) => s.key);
      sections = [...sections.filter((s) => s.key !== planned.key), rewritten].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
    }
  }

  // Re-research changed the pool, and with it what counts as distinctive of the topic: what no longer reads as
  // about the topic against the final pool goes, so the article and its score judge the same evidence.
  if (pool.length !== evidence.length) {
    const final = dropOffTopic(sections, brief, pool);
    sections = final.sections;
    report = { ...report, removed_off_topic: report.removed_off_topic + final.removed.length, removed: [...report.removed, ...final.removed] };
  }

  const kept = new Set(sections.map((s) => s.key));
  const finished = finishSections(sections, brief, pool);
  return {
    body: { writer: body.writer, sections: finished.sections },
    evidence: pool,
    report: {
      checked_by: deps.model ? "model" : "offline",
      ...report,
      // The sample shows what matters most first: claims without support, then uncited ones, then repeats.
      removed: [...report.removed].sort((a, b) => REMOVAL_ORDER.indexOf(a.reason) - REMOVAL_ORDER.indexOf(b.reason)).slice(0, REMOVED_SAMPLE),
      re_researched: reresearched,
      rewritten: rewrites.map((r) => r.planned.key),
      dropped_sections: body.sections.filter((s) => !kept.has(s.key)).map((s) => s.key),
      joined_sections: finished.joined,
      split_sections: finished.split,
    },
  };
}
