import { z } from "zod";
import type { MeteredModel } from "../model/metered-model";
import type { ArticleBrief, Evidence } from "../types";
import { languageProfile } from "../language";
import { analyseRequest } from "./request";
import { relevanceModel } from "./model";
import type { RelevanceGrade } from "./features";

/** The model's grade of each passage of the pool, by evidence id (corrective retrieval's evaluator). */
export type PassageGrades = Record<string, RelevanceGrade>;
/** The model's grade of each strip (unit) it was shown, by unit key (corrective retrieval's strip filter). */
export type StripGrades = Record<string, RelevanceGrade>;

/** Passages per grading call: the calls of one pool run at once, so grading costs one round trip. */
const PASSAGE_BATCH = 20;
/** Characters of a passage the grader reads: enough to tell what it is about. */
const EXCERPT = 700;
/** Strips per grading call: a strip is one to three sentences, so forty fit a call as twenty passages do. */
const STRIP_BATCH = 40;
/** Characters of a strip the grader reads. */
const STRIP_EXCERPT = 400;

/**
 * A grade as models write it: "Relevant", "not relevant", "partially relevant", " irrelevant." (case, spacing,
 * a full stop and the usual synonyms); anything else grades nothing.
 */
export function readGrade(answer: string): RelevanceGrade | undefined {
  const g = answer.toLowerCase().replace(/[^a-z ]/g, " ").replace(/\s+/g, " ").trim();
  if (/^(irrelevant|not relevant|non relevant|unrelated|off topic)$/.test(g)) return "irrelevant";
  if (/^(ambiguous|partially relevant|partly relevant|somewhat relevant|partial|unclear|maybe)$/.test(g)) return "ambiguous";
  if (/^(relevant|highly relevant|very relevant|on topic)$/.test(g)) return "relevant";
  return undefined;
}

/** The answer's shape; ids may come back as numbers ("id": 3 for s3), and a grade the pipeline cannot read grades nothing. */
const GradeAnswer = z.object({
  grades: z.array(z.object({ id: z.union([z.string(), z.number()]).transform(String), grade: z.string() })),
});

/** What is graded: the key its grade is kept under, the title and headings it stood under, and its text. */
interface Gradable {
  key: string;
  situated: string;
  text: string;
}

const answerWith = (example: string) => `Answer with JSON only: {"grades": [{"id": "${example}", "grade": "relevant" | "ambiguous" | "irrelevant"}, …]}, one entry per item.`;

const INSTRUCTIONS = {
  passage:
    "You grade retrieved passages for an article. A passage is relevant when it states facts about the article's subject, " +
    "ambiguous when it touches the subject only in passing, irrelevant when it is about something else (even when it shares a word with the subject). " +
    "The angle says how the article treats its subject; it never makes a passage relevant. ",
  strip:
    "You grade strips (one to three sentences) of retrieved passages for an article. A strip is relevant when it states something about the article's subject itself, " +
    "ambiguous when it may serve the subject but does not say so, irrelevant when it is about something else, even when the heading it stood under names the subject " +
    "(a section on a program's start-up that turns to the hostname file or disk encryption). The angle says how the article treats its subject; it never makes a strip relevant. ",
};

/** Where a passage stood, as the grader is shown it: its page's title and its headings. */
const situation = (e: Pick<Evidence, "title" | "heading">) => [e.title, e.heading].filter(Boolean).join(" › ");

/**
 * With a model configured, corrective retrieval's evaluator (CRAG) over a research pool, in two round trips.
 * First the model grades each passage relevant, ambiguous or irrelevant to the request's SUBJECT (the angle is
 * given apart, and said not to decide). Then, CRAG's decompose-then-recompose, it grades on its own each strip
 * of the passages it did not call irrelevant, so a passage about the subject does not lend its relevance to a
 * strip about something else; only the strips the lexical model finds at least ambiguous are asked about
 * (`RelevanceModel.stripsToGrade`). `model.ts` reads the grades: an irrelevant passage or strip gives nothing, a
 * relevant strip is relevant, an ambiguous one is judged as offline, an ungraded one as its passage's grade says.
 * An answer of the wrong shape, or ids it was not given, grade nothing: the lexical model decides alone.
 */
export async function gradePoolWithModel(model: MeteredModel, brief: ArticleBrief, evidence: readonly Evidence[]): Promise<{ passage_grades: PassageGrades; strip_grades: StripGrades }> {
  const passages = evidence.map((e) => ({ key: e.id, situated: situation(e), text: e.quote.slice(0, EXCERPT) }));
  const passage_grades = await grade(model, brief, "passage", passages, PASSAGE_BATCH);
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const strips = relevanceModel(evidence, { ...brief, passage_grades })
    .stripsToGrade()
    .map((u) => ({ key: u.key, situated: situation(byId.get(u.evidenceId)!), text: u.text.slice(0, STRIP_EXCERPT) }));
  const strip_grades = strips.length ? await grade(model, brief, "strip", strips, STRIP_BATCH) : {};
  return { passage_grades, strip_grades };
}

/** One kind of item graded in batches, side by side: each answer read leniently (`readGrade`), keyed back by the items’ keys. */
async function grade(model: MeteredModel, brief: Pick<ArticleBrief, "topic" | "keyword" | "language">, kind: "passage" | "strip", items: readonly Gradable[], size: number): Promise<Record<string, RelevanceGrade>> {
  const request = analyseRequest(brief.topic, brief.keyword, brief.language);
  const subject = request.subject.map((t) => t.surface).join(" ");
  const label = kind === "passage" ? "Passage" : "Strip";
  // Short ids the model answers with (e1, s1 …), mapped back to the keys the grades are kept under.
  const ids = new Map(items.map((item, i) => [kind === "passage" ? item.key : `s${i + 1}`, item.key]));
  const idOf = [...ids.keys()];
  const batches: { id: string; item: Gradable }[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size).map((item, j) => ({ id: idOf[i + j], item })));
  const answers = await Promise.all(
    batches.map((batch) =>
      model.json(
        [
          { role: "system", content: INSTRUCTIONS[kind] + answerWith(idOf[0]) },
          {
            role: "user",
            content: [
              `Article topic: ${brief.topic}`,
              `Subject: ${subject || brief.topic}`,
              `Angle: ${request.angle.join(" ") || "none"}`,
              `Language: ${languageProfile(brief.language).name}`,
              "",
              ...batch.map(({ id, item }) => `${label} ${id} (${item.situated}):\n${item.text}`),
            ].join("\n"),
          },
        ],
        GradeAnswer,
        { maxTokens: 30 + 15 * batch.length },
      ),
    ),
  );
  const grades: Record<string, RelevanceGrade> = {};
  const prefix = kind === "passage" ? "" : "s";
  for (const answer of answers) {
    for (const g of answer?.grades ?? []) {
      const id = ids.has(g.id) ? g.id : `${prefix}${g.id}`;
      const grade = readGrade(g.grade);
      if (ids.has(id) && grade) grades[ids.get(id)!] = grade;
    }
  }
  return grades;
}

/** How many passages (or strips) got each grade: the research stage's meta. */
export function countGrades(grades: Record<string, RelevanceGrade>): Record<RelevanceGrade, number> {
  const counts: Record<RelevanceGrade, number> = { relevant: 0, ambiguous: 0, irrelevant: 0 };
  for (const g of Object.values(grades)) counts[g]++;
  return counts;
}
