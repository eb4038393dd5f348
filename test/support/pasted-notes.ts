import { corpusOf, pastedText } from "../../bench/relevance/corpus";
import { SMALL_KNOWLEDGE_BASES } from "../../bench/relevance/knowledge-bases";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import type { ArticleBrief, Evidence } from "../../services/pipeline/article/types";

type NotesKb = keyof typeof SMALL_KNOWLEDGE_BASES;

/** A small knowledge base of the bench as research gives it: its pasted texts, extracted as the platform extracts them. */
export function notesPool(kb: NotesKb): Evidence[] {
  const { lang, texts } = SMALL_KNOWLEDGE_BASES[kb];
  return corpusOf(texts.map((t) => pastedText(t.url, t.content, t.title)), lang).passages;
}

/** A 600-word standard request on those notes, planned by rules, with the brand profile (name and description) that holds them. */
export function notesBrief(kb: NotesKb, topic: string, keyword: string): ArticleBrief {
  const { lang, brand } = SMALL_KNOWLEDGE_BASES[kb];
  return {
    ...decideBriefByRules({ topic, target_keyword: keyword, mode: "standard", language: lang, target_words: 600, image: false, derivatives: [] }, null),
    brand: { id: "b1", name: brand.name, website_url: null, description: brand.description, writing_sample_ids: [] },
  };
}
