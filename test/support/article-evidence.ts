import type { Evidence } from "../../services/pipeline/article/types";

interface SectionedPage {
  path: string;
  title: string;
  sections: { heading: string; paragraphs: string[] }[];
}

/** One evidence item per section of `pages` (ids e1, e2, …), as the research stage stores them. */
export function evidenceFromPages(pages: SectionedPage[], opts: { host: string; origin: Evidence["origin"] }): Evidence[] {
  return pages
    .flatMap((page) => page.sections.map((s) => ({ page, s })))
    .map(({ page, s }, i) => ({
      id: `e${i + 1}`,
      url: `https://${opts.host}${page.path}`,
      title: page.title,
      heading: s.heading,
      quote: s.paragraphs.join("\n"),
      fetched_at: "2025-01-01T00:00:00.000Z",
      origin: opts.origin,
    }));
}
