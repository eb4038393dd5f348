import { z } from "zod";
import type { MeteredModel } from "../model/metered-model";
import type { ArticleBrief, Evidence } from "../types";
import { languageProfile } from "../language";
import { analyseRequest } from "./request";
import type { RelevanceGrade } from "./features";

/** The model's grade of each passage of the pool, by evidence id (corrective retrieval's evaluator). */
export type PassageGrades = Record<string, RelevanceGrade>;

/** Passages per grading call: the calls of one pool run at once, so grading costs one round trip. */
const BATCH = 20;
/** Characters of a passage the grader reads: enough to tell what it is about. */
const EXCERPT = 700;

const GradeAnswer = z.object({
  grades: z.array(z.object({ id: z.string(), grade: z.enum(["relevant", "ambiguous", "irrelevant"]) })),
});

/**
 * With a model configured, the retrieval evaluator of corrective retrieval (CRAG): the model grades each
 * passage of the pool relevant, ambiguous or irrelevant to the request's SUBJECT (the angle is given apart,
 * and said not to decide). `model.ts` then drops the strips of an irrelevant passage, keeps the strips of a
 * relevant one that the lexical model finds at least ambiguous, and judges the rest as it would offline. An
 * answer of the wrong shape, or ids it was not given, grade nothing: the lexical model decides alone.
 */
export async function gradePassagesWithModel(model: MeteredModel, brief: Pick<ArticleBrief, "topic" | "keyword" | "language">, evidence: readonly Evidence[]): Promise<PassageGrades> {
  const request = analyseRequest(brief.topic, brief.keyword, brief.language);
  const subject = request.subject.map((t) => t.surface).join(" ");
  const batches: Evidence[][] = [];
  for (let i = 0; i < evidence.length; i += BATCH) batches.push(evidence.slice(i, i + BATCH));
  const answers = await Promise.all(
    batches.map((batch) =>
      model.json(
        [
          {
            role: "system",
            content:
              "You grade retrieved passages for an article. A passage is relevant when it states facts about the article's subject, " +
              "ambiguous when it touches the subject only in passing, irrelevant when it is about something else (even when it shares a word with the subject). " +
              "The angle says how the article treats its subject; it never makes a passage relevant. " +
              'Answer with JSON only: {"grades": [{"id": "e1", "grade": "relevant" | "ambiguous" | "irrelevant"}, …]}, one entry per passage.',
          },
          {
            role: "user",
            content: [
              `Article topic: ${brief.topic}`,
              `Subject: ${subject || brief.topic}`,
              `Angle: ${request.angle.join(" ") || "none"}`,
              `Language: ${languageProfile(brief.language).name}`,
              "",
              ...batch.map((e) => `Passage ${e.id} (${[e.title, e.heading].filter(Boolean).join(" › ")}):\n${e.quote.slice(0, EXCERPT)}`),
            ].join("\n"),
          },
        ],
        GradeAnswer,
        { maxTokens: 30 + 15 * batch.length },
      ),
    ),
  );
  const given = new Set(evidence.map((e) => e.id));
  const grades: PassageGrades = {};
  for (const answer of answers) for (const g of answer?.grades ?? []) if (given.has(g.id)) grades[g.id] = g.grade;
  return grades;
}

/** How many passages got each grade: the research stage's meta. */
export function countGrades(grades: PassageGrades): Record<RelevanceGrade, number> {
  const counts: Record<RelevanceGrade, number> = { relevant: 0, ambiguous: 0, irrelevant: 0 };
  for (const g of Object.values(grades)) counts[g]++;
  return counts;
}
