import { z } from "zod";
import type { StoredVoiceProfile } from "../../../../shared/schemas/brand";
import type { ArticleJobInput } from "../../../../shared/schemas/articles";
import { wordsOf } from "../../../../shared/text/segment";
import type { MeteredModel } from "../model/metered-model";
import { languagePack } from "../language/phrases";
import { termSet } from "../evidence/similarity";
import { SEARCH_INTENTS, type ArticleBrief, type BrandBrief, type KeyFact, type SearchIntent, type VoiceGuide } from "../types";

/** The parts of `brand-knowledge.getProfile` recon reads. */
export interface BrandProfileView {
  id: string;
  name: string;
  description: string | null;
  website_url: string | null;
  voice_profile: StoredVoiceProfile | null;
  fact_sheet: { facts: { fact: string; kind?: string; chunk_id: string; source_url: string | null }[] } | null;
}

/**
 * Words that signal what a searcher wants (English, German, French, Spanish), checked in this order:
 * buying now beats comparing, comparing beats looking for a place; anything else is informational.
 */
const INTENT_CUES: [SearchIntent, string[]][] = [
  [
    "transactional",
    ["buy", "order", "purchase", "coupon", "discount", "deal", "signup", "download", "trial", "subscribe", "kaufen", "bestellen", "gutschein", "rabatt", "acheter", "commander", "réduction", "comprar", "descuento", "pedido"],
  ],
  [
    "commercial",
    ["best", "top", "vs", "versus", "review", "reviews", "compare", "comparison", "alternative", "alternatives", "pricing", "price", "prices", "cost", "costs", "cheapest", "beste", "besten", "vergleich", "kosten", "preis", "preise", "meilleur", "meilleurs", "comparatif", "prix", "avis", "mejor", "mejores", "comparativa", "precio", "precios"],
  ],
  ["navigational", ["login", "signin", "homepage", "website", "contact", "kontakt", "anmelden", "connexion", "iniciar"]],
];

/** "Best practices" and its equivalents ask how to do something well, not which product to buy. */
const PRACTICES = /\b(best|good)\s+practices?\b|\bbonnes?\s+pratiques?\b|\bbewährte[nr]?\s+(methoden|verfahren|praktiken)\b|\bbuenas?\s+prácticas?\b|\bmejores\s+prácticas\b/giu;

export function detectSearchIntent(text: string, lang: string, brandName?: string): SearchIntent {
  const words = wordsOf(text.replace(PRACTICES, " ").replace(/\b(sign|log)[\s-](up|in)\b/gi, "$1$2").replace(/free trial/gi, "trial"), lang).map((w) => w.toLowerCase());
  for (const [intent, cues] of INTENT_CUES) if (words.some((w) => cues.includes(w))) return intent;
  // A search for the brand's own name, and little else, looks for the brand.
  if (brandName && words.length <= 3 && text.toLowerCase().includes(brandName.toLowerCase())) return "navigational";
  return "informational";
}

export function voiceGuideFrom(voice: BrandProfileView["voice_profile"]): VoiceGuide | null {
  if (!voice) return null;
  const ease = voice.readingLevel?.fleschReadingEase;
  const mean = voice.sentenceLength?.mean;
  return {
    tone: voice.tone ?? [],
    person: voice.person ?? "third",
    readingEase: ease ? ease : null,
    sentenceMean: mean ? mean : null,
    vocabulary: (voice.vocabulary ?? []).slice(0, 20),
    preferPhrases: (voice.preferPhrases ?? []).slice(0, 15),
    avoidPhrases: voice.avoidPhrases ?? [],
  };
}

const MAX_KEY_FACTS = 8;

/** Facts of the brand's fact sheet that share terms with the topic (all of them, in order, when the topic names the brand). */
export function relevantFacts(profile: BrandProfileView, topic: string, lang: string): KeyFact[] {
  const facts = profile.fact_sheet?.facts ?? [];
  const about = termSet(topic, lang);
  const namesBrand = topic.toLowerCase().includes(profile.name.toLowerCase());
  const scored = facts
    .map((f, i) => ({ f, i, shared: [...termSet(f.fact, lang)].filter((t) => about.has(t)).length }))
    .filter((x) => namesBrand || x.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.i - b.i);
  return scored.slice(0, MAX_KEY_FACTS).map(({ f }) => ({ fact: f.fact, chunk_id: f.chunk_id, source_url: f.source_url ?? null }));
}

const ANGLES: Record<SearchIntent, string> = {
  informational: "a practical explainer that answers what {T} is, why it matters and how to act on it",
  commercial: "a buyer's guide that weighs the options, costs and trade-offs of {T}",
  transactional: "a get-started guide to {T}: what you get, what it costs and the first steps",
  navigational: "an orientation to {T}: what it is, what it offers and where to go next",
};

/** recon offline: intent from the words of topic and keyword, an angle per intent, the brand's facts and voice. */
export function decideBriefByRules(input: ArticleJobInput, profile: BrandProfileView | null, writingSampleIds: string[] = []): ArticleBrief {
  const intent = detectSearchIntent(`${input.topic} ${input.target_keyword}`, input.language, profile?.name);
  let angle = ANGLES[intent].replace("{T}", input.topic);
  if (input.audience) angle += `, written for ${input.audience}`;
  if (profile) angle += `, grounded in what ${profile.name} documents`;
  const brand: BrandBrief | null = profile
    ? { id: profile.id, name: profile.name, website_url: profile.website_url, description: profile.description, writing_sample_ids: writingSampleIds }
    : null;
  return {
    topic: input.topic,
    keyword: input.target_keyword,
    language: input.language,
    mode: input.mode,
    audience: input.audience ?? null,
    tone: input.tone ?? null,
    extra_instructions: input.extra_instructions ?? null,
    intent,
    angle,
    decided_by: "rules",
    brand,
    voice: profile ? voiceGuideFrom(profile.voice_profile) : null,
    key_facts: profile ? relevantFacts(profile, `${input.topic} ${input.target_keyword}`, input.language) : [],
  };
}

const ReconAnswer = z.object({
  search_intent: z.enum(SEARCH_INTENTS as [SearchIntent, ...SearchIntent[]]),
  angle: z.string().trim().min(10).max(400),
});

/** recon with a model: it decides intent and angle (JSON, validated); an answer of the wrong shape keeps the rules' decision. */
export async function decideBriefWithModel(model: MeteredModel, input: ArticleJobInput, rules: ArticleBrief): Promise<ArticleBrief> {
  const lines = [
    `Topic: ${input.topic}`,
    `Target keyword: ${input.target_keyword}`,
    `Language: ${languagePack(input.language).name} (${input.language})`,
    input.audience ? `Audience: ${input.audience}` : "",
    input.tone ? `Requested tone: ${input.tone}` : "",
    input.extra_instructions ? `Extra instructions: ${input.extra_instructions}` : "",
    rules.brand ? `Brand: ${rules.brand.name}${rules.brand.description ? ` — ${rules.brand.description}` : ""}` : "",
    rules.key_facts.length ? `Facts the brand documents:\n${rules.key_facts.map((f) => `- ${f.fact}`).join("\n")}` : "",
    rules.voice ? `Brand voice: tone ${rules.voice.tone.join(", ") || "neutral"}, ${rules.voice.person} person` : "",
  ].filter(Boolean);
  const answer = await model.json(
    [
      {
        role: "system",
        content:
          "You plan long-form articles. Decide the search intent behind the keyword (informational, commercial, transactional or navigational) " +
          'and the article\'s angle in one sentence. Answer with JSON only: {"search_intent": "...", "angle": "..."}.',
      },
      { role: "user", content: lines.join("\n") },
    ],
    ReconAnswer,
    { maxTokens: 300 },
  );
  if (!answer) return rules;
  return { ...rules, intent: answer.search_intent, angle: answer.angle, decided_by: "model" };
}
