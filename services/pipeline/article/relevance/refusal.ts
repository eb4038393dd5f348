import { identifyLanguage, UNDETERMINED } from "../../../../shared/text/language";
import type { EvidenceUnit } from "../evidence/units";
import type { ArticleBrief } from "../types";
import type { CoverageView } from "./model";

/**
 * Why a pool cannot make an article, in words a customer can act on: the subject's terms no passage in the
 * requested language states, or the language the passages are in when none is in the requested one.
 */
export function describeMissingCoverage(units: readonly EvidenceUnit[], coverage: CoverageView, brief: Pick<ArticleBrief, "topic" | "language" | "brand">): string {
  const where = brief.brand ? "this brand profile's sources" : "the sources research found";
  if (!units.length) return `No passages about “${brief.topic}” in ${where}; add sources that cover it.`;
  if (!units.some((u) => coverage.inLanguage(u))) {
    const found = [...new Set(units.map((u) => identifyLanguage(u.text)).filter((l) => l !== UNDETERMINED))];
    const theirs = found.length ? ` (they are in ${found.slice(0, 3).join(", ")})` : "";
    return `No passages in the requested language (${brief.language}) in ${where}${theirs}; add sources written in ${brief.language}, or request the article in the sources' language.`;
  }
  const missing = coverage.missing.filter((t) => !t.ubiquitous);
  const lacking = missing.length ? missing : coverage.concepts;
  return `No passages about ${lacking.map((c) => `“${c.surface}”`).join(", ")} in ${where}: nothing there covers “${brief.topic}”; add sources that cover it.`;
}
