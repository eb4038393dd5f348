import { withoutSiteChrome } from "../../services/brand-knowledge/knowledge/site-chrome";
import { extractDocument } from "../../shared/text/extract";

const NOTICE = "The rewrite of this tutorial with updated contents is available as the Guide for Maintainers; please use it as the primary tutorial.";

const page = (n: number, own: string[], shared: string[] = []) =>
  extractDocument({
    url: `https://docs.example/ch${n}.html`,
    contentType: "text/html",
    body: `<html lang="en"><head><title>Chapter ${n}</title></head><body><main><h1>Chapter ${n}</h1><p>${NOTICE}</p><h2>Section ${n}.1</h2>${[...own, ...shared].map((p) => `<p>${p}</p>`).join("")}<p>Note</p><p>Chapter ${n} ends here with a sentence of its own about topic ${n}.</p></main></body></html>`,
  });

describe("a crawled site's chrome (withoutSiteChrome)", () => {
  const pages = [
    page(1, ["The first chapter explains how a source package is laid out on disk."], ["Both of these chapters mention the same sentence about signing uploads with a key."]),
    page(2, ["The second chapter explains how the changelog records every upload."], ["Both of these chapters mention the same sentence about signing uploads with a key."]),
    page(3, ["The third chapter explains how the rules file drives the build."]),
    page(4, ["The fourth chapter explains how patches are kept in a series."]),
  ];

  it("takes out a sentence-long paragraph found on at least half the site's pages, and nothing else", () => {
    const { documents, removed } = withoutSiteChrome(pages);
    expect(removed).toBe(4);
    expect(documents.map((d) => d.text.includes(NOTICE))).toEqual([false, false, false, false]);
    // A paragraph two of four pages share, and a one-word label every page repeats, are content and structure.
    expect(documents[0].text).toContain("Both of these chapters mention the same sentence");
    expect(documents.every((d) => d.text.includes("Note"))).toBe(true);
    expect(documents[2].text).toContain("The third chapter explains how the rules file drives the build.");
  });

  it("rebuilds what follows from the text: the lead sentences and the word count", () => {
    const [before] = pages;
    const [after] = withoutSiteChrome(pages).documents;
    expect(before.leadSentences[0]).toBe(NOTICE);
    expect(after.leadSentences[0]).toBe("The first chapter explains how a source package is laid out on disk.");
    expect(after.wordCount).toBeLessThan(before.wordCount);
  });

  it("leaves a site of fewer than three pages as it is: two pages cannot tell chrome from shared content", () => {
    const { documents, removed } = withoutSiteChrome(pages.slice(0, 2));
    expect(removed).toBe(0);
    expect(documents[0].text).toContain(NOTICE);
  });
});
