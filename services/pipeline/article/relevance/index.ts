/**
 * The relevance model (docs/relevance.md): the request's subject and angle (`request.ts`), weighed within the
 * profile (`weights.ts`), sentences scored by a calibrated logistic model (`features.ts`, `calibration.ts`),
 * one model per pool (`model.ts`), and the refusal's words (`refusal.ts`).
 */
export { relevanceModel, requestedAngle, subjectFromPool, type RelevanceModel, type CoverageView } from "./model";
export { analyseRequest, type RequestAnalysis, type SubjectTerm } from "./request";
export { SMALL_PROFILE_CHUNKS, spansWholeProfile, subjectWeights, weighRequest, termsToCount, type RequestSubject, type TermStats, type WeightedTerm, type WeightFit } from "./weights";
export { CALIBRATION } from "./calibration";
export { relevanceLogit, relevanceProbability, subjectShare, withCompounds, withSplitParts, type RelevanceCoefficients, type RelevanceFeatures, type RelevanceGrade } from "./features";
export { describeMissingCoverage } from "./refusal";
export { countGrades, gradePoolWithModel, type PassageGrades, type StripGrades } from "./model-grades";
