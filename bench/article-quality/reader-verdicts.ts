import verdicts from "./reader-verdicts.json";
import type { ReaderVerdict } from "./checks";

/** Sentences compared as a reader reads them: spacing aside. */
const key = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * A reader's labels for one case's articles (`reader-verdicts.json`): on topic, off topic, or undefined for a
 * sentence no reader has read yet (a change to the writer that quotes a new sentence leaves it to the vocabulary).
 */
export function readerVerdictFor(caseId: string /* "<language>-<id>", as the results name a case */): ReaderVerdict {
  const labels = (verdicts.cases as Record<string, { on: string[]; off: { text: string }[] }>)[caseId];
  if (!labels) return () => undefined;
  const on = new Set(labels.on.map(key));
  const off = new Set(labels.off.map((o) => key(o.text)));
  return (text) => (on.has(key(text)) ? true : off.has(key(text)) ? false : undefined);
}
