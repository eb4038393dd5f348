import fs from "node:fs";
import path from "node:path";
import type { QualityCase } from "./cases";
import type { ApiArticle, ArticleChecks } from "./checks";
import { judgeFaq, pooledFaq } from "../faq-reader";

export const TARGETS = { onTopic: 0.95, support: 0.95, language: 0.95 };
/**
 * Length honesty (docs/article-pipeline.md#quality-score): no article under 200 body words is delivered, and one
 * under 75% of its target scores at most the share delivered (100 × body words / target; 3 points of slack for
 * the bench's own word count, which splits a few tokens differently from the pipeline's).
 */
export const LENGTH = { floorWords: 200, passingShare: 0.75, slack: 3 };

export interface JobOutcome {
  case: QualityCase;
  price: number;
  before: number;
  after: number;
  /** Balance change between this job's settlement and the next job's start (or a final read 2 s later). */
  drift: number;
  status: string;
  error: string | null;
  credits_charged: number;
  seconds: number;
  stage_seconds?: Record<string, number | null>;
  job_id?: string;
  article?: ApiArticle;
  checks?: ArticleChecks;
  refundOk?: boolean;
  verdict?: "good" | "bad" | "refused";
  failedTargets?: string[];
}

const pct = (n: number) => `${Math.round(n * 100)}%`;
const name = (o: JobOutcome) => `${o.case.request.language}-${o.case.id}`;

/** Per job: refund correctness, the targets it misses, good/bad/refused; then the issue's targets over all jobs. */
export function aggregate(outcomes: JobOutcome[]): Record<string, unknown> {
  for (const o of outcomes) {
    const succeeded = o.status === "succeeded";
    const expectedAfter = succeeded ? o.before - o.credits_charged : o.before;
    const priced = o.status.startsWith("rejected") || o.credits_charged === o.price;
    o.refundOk = o.after === expectedAfter && o.drift === 0 && priced;
    const failed: string[] = [];
    if (!o.refundOk) failed.push(priced ? `balance ${o.before}→${o.after} (drift ${o.drift}), expected ${expectedAfter}` : `charged ${o.credits_charged}, price ${o.price}`);
    if (succeeded && o.checks) {
      const k = o.checks;
      if (o.case.expect === "refusal") failed.push("written, should have been refused");
      if (k.onTopic.share < TARGETS.onTopic) failed.push(`on-topic ${pct(k.onTopic.share)}`);
      if (k.support.share < TARGETS.support) failed.push(`support ${pct(k.support.share)}`);
      if (k.fabricated.length || k.support.fabricated.length) failed.push(`${Math.max(k.fabricated.length, k.support.fabricated.length)} fabricated`);
      const langFails = Object.entries(k.language).filter(([, v]) => v.share < TARGETS.language);
      if (langFails.length) failed.push(`language: ${langFails.map(([f, v]) => `${f} ${pct(v.share)}`).join(", ")}`);
      if (k.form.length) failed.push(`${k.form.length} form problems`);
      // A short article is delivered honestly (its score capped), but it is not what was asked: not "good".
      if (k.words.body_ratio < LENGTH.passingShare) failed.push(`short: ${k.words.body_words}/${k.words.target_words} body words`);
    } else if (o.case.expect === "success") failed.push("covered topic not written");
    o.failedTargets = failed;
    o.verdict = !succeeded ? "refused" : failed.length === 0 && o.case.expect === "success" ? "good" : "bad";
  }
  const written = outcomes.filter((o) => o.status === "succeeded" && o.checks);
  const checks = written.map((o) => o.checks!);
  const scoreOf = (o: JobOutcome) => (o.verdict === "refused" ? 0 : (o.article?.quality_score ?? 0));
  const good = outcomes.filter((o) => o.verdict === "good");
  const others = outcomes.filter((o) => o.verdict !== "good");
  const minGood = good.length ? Math.min(...good.map(scoreOf)) : null;
  const maxOther = others.length ? Math.max(...others.map(scoreOf)) : null;
  const uncovered = outcomes.filter((o) => o.case.expect === "refusal");
  const fabricated = checks.reduce((n, k) => n + new Set([...k.fabricated.map((f) => f.url), ...k.support.fabricated.map((f) => f.url)]).size, 0);
  const formProblems = checks.reduce((n, k) => n + k.form.length, 0);
  const min = (xs: number[]) => (xs.length ? Math.min(...xs) : null);
  const mean = (xs: number[]) => (xs.length ? Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3)) : null);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const byKind: Record<string, number> = {};
  for (const k of checks) for (const p of k.form) byKind[p.kind] = (byKind[p.kind] ?? 0) + 1;
  const langFields: Record<string, number> = {};
  for (const k of checks) for (const [f, v] of Object.entries(k.language)) langFields[f] = Math.min(langFields[f] ?? 1, Number(v.share.toFixed(3)));
  return {
    jobs: outcomes.length,
    written: written.length,
    refused: outcomes.filter((o) => o.verdict === "refused").length,
    covered_written: `${outcomes.filter((o) => o.case.expect === "success" && o.status === "succeeded").length}/${outcomes.filter((o) => o.case.expect === "success").length}`,
    targets: {
      on_topic: {
        target: `≥ ${TARGETS.onTopic} in every article`,
        min: min(checks.map((k) => Number(k.onTopic.share.toFixed(3)))),
        mean: mean(checks.map((k) => k.onTopic.share)),
        met: checks.every((k) => k.onTopic.share >= TARGETS.onTopic),
        by_vocabulary_alone: { min: min(checks.map((k) => Number(k.onTopic.vocabularyShare.toFixed(3)))), mean: mean(checks.map((k) => k.onTopic.vocabularyShare)) },
        reader_labels: `${sum(checks.map((k) => k.onTopic.labelled))} of ${sum(checks.map((k) => k.onTopic.sentences))} sentences, ${sum(checks.map((k) => k.onTopic.overruled))} overruling the vocabulary`,
      },
      support: { target: `≥ ${TARGETS.support} in every article`, min: min(checks.map((k) => Number(k.support.share.toFixed(3)))), mean: mean(checks.map((k) => k.support.share)), met: checks.every((k) => k.support.share >= TARGETS.support) },
      fabricated: { target: "0", count: fabricated, met: fabricated === 0 },
      language: { target: `≥ ${TARGETS.language} in every field`, min: min(checks.map((k) => Number(k.languageMin.toFixed(3)))), min_by_field: langFields, met: checks.every((k) => k.languageMin >= TARGETS.language) },
      form: { target: "0 malformed headings/FAQ/meta/prose", count: formProblems, by_kind: byKind, met: formProblems === 0 },
      uncovered_refused: {
        target: "every uncovered topic (and the language the profile lacks) refused with an exact refund",
        refused: `${uncovered.filter((o) => o.verdict === "refused" && o.refundOk).length}/${uncovered.length}`,
        met: uncovered.every((o) => o.verdict === "refused" && o.refundOk),
      },
      refunds_exact: { target: "every job: charged the price, failed ones refunded exactly", exact: `${outcomes.filter((o) => o.refundOk).length}/${outcomes.length}`, met: outcomes.every((o) => o.refundOk) },
      length_honest: (() => {
        const short = written.filter((o) => o.checks!.words.body_ratio < LENGTH.passingShare);
        const overScored = short.filter((o) => (o.article?.quality_score ?? 0) > 100 * o.checks!.words.body_ratio + LENGTH.slack);
        const underFloor = written.filter((o) => o.checks!.words.body_words < LENGTH.floorWords - LENGTH.slack);
        return {
          target: `no article under ${LENGTH.floorWords} body words; under ${LENGTH.passingShare * 100}% of the target, a score at most 100 × body/target`,
          short: short.map((o) => `${o.case.profile}-${o.case.id} ${o.checks!.words.body_words}/${o.checks!.words.target_words} → ${o.article?.quality_score}`),
          over_scored: overScored.length,
          under_floor: underFloor.length,
          met: overScored.length === 0 && underFloor.length === 0,
        };
      })(),
      faq: (() => {
        // The issue's FAQ target: a covered article of 800 words or more carries at least 3 well-formed pairs
        // (malformed ones are counted under form). Whether its evidence held definitions, procedures or reasons
        // is not judged here: every long article is counted. A pair a reader turned down (`faq-labels.json`: no
        // question a reader would ask, or not answered) does not count; one no reader has read does, and is listed.
        const long = written.filter((o) => o.checks!.words.body_words >= FAQ_TARGET.fromWords);
        const judged = new Map(written.map((o) => [o, judgeFaq(o.article?.faq ?? [])]));
        const kept = (o: JobOutcome) => judged.get(o)!.pairs - judged.get(o)!.rejected.length;
        const withPairs = long.filter((o) => kept(o) >= FAQ_TARGET.pairs);
        const reader = pooledFaq([...judged.values()]);
        return {
          target: `≥ ${FAQ_TARGET.pairs} pairs a reader does not turn down in every article of ≥ ${FAQ_TARGET.fromWords} body words`,
          articles: `${withPairs.length}/${long.length}`,
          pairs: long.map((o) => `${o.case.profile}-${o.case.id} ${kept(o)}/${o.article?.faq.length ?? 0}`),
          reader_all_articles: `${reader.accepted} accepted of ${reader.labelled} labelled (${reader.pairs} pairs)`,
          rejected: written.flatMap((o) => judged.get(o)!.rejected.map((r) => `${o.case.profile}-${o.case.id}: ${r.question} (${r.why})`)),
          met: withPairs.length === long.length,
        };
      })(),
      score_ordering: {
        target: "every refused (0) or bad case below every good one",
        good: good.length,
        min_good: minGood,
        max_refused_or_bad: maxOther,
        bad_above_50: outcomes.filter((o) => o.verdict === "bad" && scoreOf(o) > 50).length,
        met: good.length > 0 && (maxOther === null || (minGood !== null && minGood > maxOther)),
      },
    },
  };
}

const FAQ_TARGET = { fromWords: 800, pairs: 3 };

function cell(s: string, width: number): string {
  return s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width);
}

export function printReport(outcomes: JobOutcome[], agg: Record<string, any>, timings: Record<string, unknown>): void {
  const out: string[] = [];
  const cols: [string, number][] = [["case", 34], ["expect", 7], ["status", 10], ["refund", 6], ["score", 5], ["topic", 5], ["supp", 5], ["fab", 3], ["lang", 20], ["form", 4], ["words/tgt", 10], ["s", 6], ["verdict", 7]];
  out.push("", "Article quality (bench/article-quality)", cols.map(([h, w]) => cell(h, w)).join(" "));
  for (const o of outcomes) {
    const k = o.checks;
    const worstField = k ? Object.entries(k.language).sort((a, b) => a[1].share - b[1].share)[0] : undefined;
    out.push(
      [
        cell(name(o), 34),
        cell(o.case.expect === "success" ? "article" : "refusal", 7),
        cell(o.status, 10),
        cell(o.refundOk ? "ok" : "WRONG", 6),
        cell(o.article?.quality_score !== undefined ? String(o.article.quality_score) : "-", 5),
        cell(k ? pct(k.onTopic.share) : "-", 5),
        cell(k ? pct(k.support.share) : "-", 5),
        cell(k ? String(new Set([...k.fabricated.map((f) => f.url), ...k.support.fabricated.map((f) => f.url)]).size) : "-", 3),
        cell(worstField ? `${pct(worstField[1].share)} ${worstField[0]}` : "-", 20),
        cell(k ? String(k.form.length) : "-", 4),
        cell(k ? `${k.words.word_count}/${k.words.target_words}` : "-", 10),
        cell(String(o.seconds), 6),
        cell(o.verdict ?? "", 7),
      ].join(" "),
    );
  }
  out.push("");
  for (const o of outcomes) {
    out.push(`• ${name(o)} (${o.case.profile} profile, ${o.case.request.mode}, ${o.case.request.target_words} words): ${o.status}${o.error ? ` — ${o.error}` : ""}`);
    if (o.failedTargets?.length) out.push(`    misses: ${o.failedTargets.join("; ")}`);
    const k = o.checks;
    if (!k) continue;
    for (const w of k.onTopic.worst) out.push(`    off topic [${w.heading}]: ${w.text.slice(0, 160)}`);
    for (const u of k.support.unsupported.slice(0, 3)) out.push(`    unsupported (${u.best}) ${u.url.replace(/^https?:\/\/[^/]+/, "")}: ${u.claim.slice(0, 140)}`);
    for (const f of [...k.fabricated, ...k.support.fabricated.map((x) => ({ field: `citation: ${x.reason}`, url: x.url }))].slice(0, 3)) out.push(`    fabricated (${f.field}): ${f.url}`);
    for (const [field, v] of Object.entries(k.language)) for (const w of v.wrong.slice(0, 1)) if (v.share < TARGETS.language) out.push(`    language ${field} ${pct(v.share)} (${w.lang}): ${w.text.slice(0, 120)}`);
    for (const p of k.form.slice(0, 4)) out.push(`    form: ${p.kind}: ${p.text.slice(0, 140)}`);
    if (k.form.length > 4) out.push(`    form: … ${k.form.length - 4} more`);
  }
  out.push("", "Targets:");
  for (const [key, t] of Object.entries(agg.targets as Record<string, any>)) {
    const { met, target, ...rest } = t;
    out.push(`  ${met ? "MET    " : "NOT MET"} ${key} (${target}): ${JSON.stringify(rest)}`);
  }
  out.push(`Timings: ${JSON.stringify(timings)}`, "");
  process.stdout.write(`${out.join("\n")}\n`);
}

/** Each job as a markdown file a person can read: the request, the outcome, the article with its metadata, the checks. */
export function writeArticleFiles(outcomes: JobOutcome[], dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const o of outcomes) {
    const a = o.article;
    const k = o.checks;
    const lines: string[] = [
      `<!-- article-quality bench: ${name(o)} -->`,
      `# ${name(o)}`,
      "",
      `- request (${o.case.profile} profile): \`${JSON.stringify(o.case.request)}\``,
      `- expected: ${o.case.expect} (${o.case.why})`,
      `- status: **${o.status}**${o.error ? `, error: ${o.error}` : ""}; verdict: **${o.verdict}**`,
      `- credits: charged ${o.credits_charged} (price ${o.price}); balance ${o.before} → ${o.after}, drift ${o.drift}; refund ${o.refundOk ? "exact" : "WRONG"}`,
      `- time: ${o.seconds} s ${o.stage_seconds ? JSON.stringify(o.stage_seconds) : ""}`,
    ];
    if (o.failedTargets?.length) lines.push(`- misses: ${o.failedTargets.join("; ")}`);
    if (a && k) {
      lines.push(
        `- quality_score: **${a.quality_score}** ${JSON.stringify(a.quality_breakdown ?? {})}`,
        `- on topic: ${k.onTopic.onTopic}/${k.onTopic.sentences} sentences of the introduction (cited) and body; ${k.onTopic.labelled} labelled by a reader (${k.onTopic.overruled} against the vocabulary), ${pct(k.onTopic.vocabularyShare)} by the vocabulary alone (${k.onTopic.vocabulary.join(", ")})`,
        `- support: ${k.support.supported}/${k.support.citations} citations; quotes found on the page ${k.support.quotes.foundOnPage}/${k.support.quotes.present}`,
        `- words: ${k.words.word_count} (body ${k.words.body_words}) for ${k.words.target_words}`,
        `- language: ${Object.entries(k.language).map(([f, v]) => `${f} ${v.inLanguage + v.undetermined}/${v.items}${v.undetermined ? ` (${v.undetermined} und)` : ""}`).join(", ")}`,
        "",
        "## Checks",
        "",
        ...k.onTopic.off.map((w) => `- off topic under "${w.heading}": ${w.text}`),
        ...k.support.unsupported.slice(0, 10).map((u) => `- unsupported (best window ${u.best}) ${u.url}: ${u.claim}`),
        ...k.support.quotes.missing.slice(0, 5).map((q) => `- quote not on ${q.url}: ${q.quote}`),
        ...k.fabricated.map((f) => `- fabricated address in ${f.field}: ${f.url}`),
        ...Object.entries(k.language).flatMap(([f, v]) => v.wrong.map((w) => `- language of ${f} is ${w.lang}: ${w.text}`)),
        ...k.form.map((p) => `- form, ${p.kind}: ${p.text}`),
        "",
        "## Metadata",
        "",
        `- title: ${a.title}`,
        `- meta_title (${(a.meta_title ?? "").length}): ${a.meta_title ?? ""}`,
        `- meta_description (${(a.meta_description ?? "").length}): ${a.meta_description ?? ""}`,
        `- title_variants: ${a.title_variants.map((t) => `"${t}"`).join("; ")}`,
        a.image ? `- image: ${a.image.url} (${a.image.alt ?? ""})` : "- image: none",
        "",
        "### FAQ",
        "",
        ...a.faq.flatMap((f) => [`- **${f.question}**`, `  ${f.answer}`]),
        "",
        "### Citations",
        "",
        ...a.citations.flatMap((c, i) => [`${i + 1}. ${c.claim} — [${c.title}](${c.url})`, ...(c.quote ? [`   > ${c.quote}`] : [])]),
        "",
        "### Derivatives",
        "",
        "```json",
        JSON.stringify(a.derivatives ?? null, null, 2),
        "```",
        "",
        "## Article (content_markdown)",
        "",
        a.content_markdown ?? "",
      );
    }
    const file = path.join(dir, `${name(o)}.md`);
    fs.writeFileSync(file, `${lines.join("\n")}\n`);
    files.push(path.relative(path.resolve(dir, "../../.."), file));
  }
  return files;
}
