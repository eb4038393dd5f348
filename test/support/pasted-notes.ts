import { corpusOf, pastedText } from "../../bench/relevance/corpus";
import { SMALL_KNOWLEDGE_BASES } from "../../bench/relevance/knowledge-bases";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import type { ArticleBrief, Evidence } from "../../services/pipeline/article/types";

type NotesKb = keyof typeof SMALL_KNOWLEDGE_BASES;

/** Pasted texts as research gives them: extracted as the platform extracts them, each at its own address. */
export function pastedPool(texts: readonly { url: string; title: string; content: string }[], lang: string): Evidence[] {
  return corpusOf(texts.map((t) => pastedText(t.url, t.content, t.title)), lang).passages;
}

/** A 600-word standard request planned by rules, with the brand profile (name and description) that holds the notes. */
export function pastedBrief(lang: string, brand: { name: string; description: string }, topic: string, keyword: string): ArticleBrief {
  return {
    ...decideBriefByRules({ topic, target_keyword: keyword, mode: "standard", language: lang, target_words: 600, image: false, derivatives: [] }, null),
    brand: { id: "b1", name: brand.name, website_url: null, description: brand.description, writing_sample_ids: [] },
  };
}

/** A small knowledge base of the relevance bench as research gives it. */
export function notesPool(kb: NotesKb): Evidence[] {
  const { lang, texts } = SMALL_KNOWLEDGE_BASES[kb];
  return pastedPool(texts, lang);
}

/** A 600-word standard request on those notes, with the brand profile that holds them. */
export function notesBrief(kb: NotesKb, topic: string, keyword: string): ArticleBrief {
  const { lang, brand } = SMALL_KNOWLEDGE_BASES[kb];
  return pastedBrief(lang, brand, topic, keyword);
}
