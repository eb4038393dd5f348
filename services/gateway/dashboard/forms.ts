import type { z } from "zod";
import type { Contract } from "../../../shared/action";
import type { ListPage } from "../../../shared/schemas/pagination";
import { parseOrThrow, uuid } from "../../../shared/validation";

/** What the dashboard's routes share to read forms and pages: typed form parameters, whole numbers, the lists' cursor. */

/**
 * What a form typed, checked against the action's own contract before the call: a refusal carries the
 * rule's message exactly as the action would give it, and the call is typed by the contract.
 */
export const formParams = <S extends z.ZodType>(action: Contract<S, unknown>, typed: Record<string, unknown>): z.output<S> =>
  // A field left empty is absent, as it is from a JSON body: never a key holding `undefined`, which would be stored as null.
  parseOrThrow(action.params, Object.fromEntries(Object.entries(typed).filter(([, v]) => v !== undefined)));

/** A whole number as typed, or the text itself (so that the contract refuses it with its own message). */
export const intField = (form: URLSearchParams, name: string): number | string => {
  const raw = (form.get(name) ?? "").trim();
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
};

/** A text field, left out when empty (so that the contract's default applies). */
export const optionalText = (form: URLSearchParams, name: string): string | undefined => {
  const raw = form.get(name);
  return raw === null || raw.trim() === "" ? undefined : raw;
};

/** The `starting_after` of the page's URL when it is a UUID, as the lists' contracts take it; anything else pages from the start. */
export const cursorFrom = (query: URLSearchParams): { starting_after?: string } => {
  const after = query.get("starting_after");
  return after && uuid.safeParse(after).success ? { starting_after: after } : {};
};

/** The cursor of the next page: the last item's id while there is more. */
export const nextCursor = (page: ListPage<{ id: string }>): string | undefined => (page.has_more ? page.data[page.data.length - 1]?.id : undefined);

/** A message after a redirect, by name only (`?done=<name>`), so nothing a user typed is ever reflected from the URL. */
export const doneNotice = (query: URLSearchParams, messages: Record<string, string>): { kind: "ok"; text: string } | undefined => {
  const key = query.get("done");
  return key && Object.prototype.hasOwnProperty.call(messages, key) ? { kind: "ok", text: messages[key] } : undefined;
};

/** A textarea's value as the browser posts it (CRLF line ends) with the line ends stored text has. */
export const textareaField = (form: URLSearchParams, name: string): string => (form.get(name) ?? "").replace(/\r\n?/g, "\n");
