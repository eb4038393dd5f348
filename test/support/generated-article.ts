import { randomUUID } from "node:crypto";
import type { GeneratedArticle } from "../../shared/schemas/articles";

/** A finished article as the pipeline hands it to `articles.saveGenerated`. */
export function generatedArticle(orgId: string, overrides: Partial<GeneratedArticle> = {}): GeneratedArticle {
  return {
    job_id: randomUUID(),
    org_id: orgId,
    brand_profile_id: null,
    mode: "standard",
    language: "en",
    topic: "Composting at home",
    target_keyword: "home composting",
    title: "Home Composting: A Practical Guide",
    content_markdown: "# Home Composting\n\nComposting turns kitchen scraps into soil [1](https://example.org/compost).\n\n<script>alert(1)</script>\n\n## Getting started\n\nPick a shady spot.",
    meta_title: "Home Composting Guide",
    meta_description: "How to compost at home, step by step.",
    slug: "home-composting-guide",
    title_variants: ["Compost at Home", "Home Composting 101", "Start Composting Today"],
    faq: [
      { question: "How long does compost take?", answer: "Two to six months." },
      { question: "Does it smell?", answer: "Not when balanced." },
      { question: "What can go in?", answer: "Greens and browns." },
    ],
    json_ld: { "@context": "https://schema.org", "@type": "Article", headline: "Home Composting: A Practical Guide" },
    citations: [
      { claim: "Composting turns kitchen scraps into soil.", url: "https://example.org/compost", title: "Compost basics", quote: "Composting turns kitchen scraps into soil within months." },
      { claim: "A balanced pile does not smell.", url: "https://example.org/smell", title: "Odour", quote: "A balanced pile does not smell." },
    ],
    word_count: 17,
    read_minutes: 1,
    flesch_score: 61.2,
    quality_score: 82,
    quality_breakdown: {
      readability: 80,
      structure: 90,
      keyword_coverage: 70,
      citation_coverage: 85,
      topical_relevance: 100,
      claim_support: 96,
      form: 100,
      duplication: 95,
      length_vs_target: 60,
      voice_match: 75,
      language_consistency: 100,
    },
    image: null,
    derivatives: { linkedin: "Composting at home is easier than you think." },
    ...overrides,
  };
}
