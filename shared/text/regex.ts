/** `text` as a regular expression that matches it literally (user input in a `$regex`, a phrase in a pattern). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
