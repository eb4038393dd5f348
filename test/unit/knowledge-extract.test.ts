import { cleanHeading, extractableKind, extractDocument, extractPlainText } from "../../shared/text/extract";
import { KNOWLEDGE_CORPUS } from "../support/knowledge-corpus";

const pricingPage = KNOWLEDGE_CORPUS.find((d) => d.id === "pricing")!;

const nestedPage = `<!doctype html>
<html lang="en-GB">
<head><title>Kestrel Routing | Plans</title></head>
<body>
  <nav class="top-nav"><a href="/">Home</a> <a href="/plans">Plans</a> <a href="/blog">Blog</a> <a href="/jobs">Jobs</a></nav>
  <div class="cookie-consent-banner"><p>This site uses cookies for analytics. Accept cookies to continue browsing.</p><button>OK</button></div>
  <main>
    <h1>Plans for every fleet</h1>
    <p>Kestrel Routing plans dispatch for delivery fleets of every size. Each plan includes live tracking, proof of delivery and a driver app for Android and iOS, and you can change plans whenever your fleet grows.</p>
    <h2>Pricing</h2>
    <p>Prices are per vehicle and per month, billed annually or monthly, and every plan starts with a fourteen-day trial.</p>
    <h3>Team plan</h3>
    <p>The Team plan costs $29 per vehicle per month and covers up to 25 vehicles, with route optimisation, customer notifications by text message and standard reports for dispatchers.</p>
    <h3>Enterprise plan</h3>
    <p>The Enterprise plan adds single sign-on, custom integrations with your warehouse system and a dedicated success manager; it is quoted individually for fleets above 25 vehicles.</p>
    <table><tr><th>Plan</th><th>Price</th></tr><tr><td>Team</td><td>$29</td></tr><tr><td>Enterprise</td><td>Custom</td></tr></table>
    <h2>Support</h2>
    <p>Support is available by chat and email around the clock, and by phone on weekdays from eight to eight, for every customer on every plan without exception.</p>
    <ul><li>Chat answers within five minutes on average.</li><li>Email answers within four hours on average.</li></ul>
  </main>
  <footer class="footer"><p>Copyright 2025 Kestrel Routing Inc. All rights reserved.</p><a href="/imprint">Imprint</a></footer>
  <script>console.log("tracking pixel")</script>
</body>
</html>`;

describe("extractDocument (HTML through Readability)", () => {
  const doc = extractDocument({ url: "https://kestrel.example/plans", contentType: "text/html; charset=UTF-8", body: nestedPage });

  it("turns headings into heading paths, nested levels included", () => {
    expect(doc.sections.map((s) => s.headingPath)).toEqual([[], ["Pricing"], ["Pricing", "Team plan"], ["Pricing", "Enterprise plan"], ["Support"]]);
    expect(doc.sections[2].text).toContain("The Team plan costs $29 per vehicle per month");
  });

  it("keeps a table row on one line and list items apart", () => {
    expect(doc.sections[3].text.split("\n")).toEqual(expect.arrayContaining(["Plan | Price", "Team | $29", "Enterprise | Custom"]));
    expect(doc.sections[4].text.split("\n")).toEqual(expect.arrayContaining(["Chat answers within five minutes on average.", "Email answers within four hours on average."]));
  });

  it("drops navigation, the cookie banner, the footer and scripts", () => {
    for (const boilerplate of ["cookies", "Jobs", "All rights reserved", "Imprint", "tracking pixel"]) expect(doc.text).not.toContain(boilerplate);
  });

  it("finds the title, the language and the lead sentences", () => {
    expect(doc.title).toBe("Kestrel Routing | Plans");
    expect(doc.lang).toBe("en-GB");
    expect(doc.leadSentences[0]).toBe("Kestrel Routing plans dispatch for delivery fleets of every size.");
    expect(doc.leadSentences).toHaveLength(3);
  });

  it("counts words and joins the text with headings on their own lines", () => {
    expect(doc.text).toContain("Pricing\n\nPrices are per vehicle");
    expect(doc.text).toContain("\n\nTeam plan\n\nThe Team plan costs");
    expect(doc.wordCount).toBeGreaterThan(120);
    expect(doc.wordCount).toBeLessThan(200);
  });

  it("falls back to the first h1 when the page has no <title>", () => {
    const page = nestedPage.replace("<title>Kestrel Routing | Plans</title>", "");
    expect(extractDocument({ url: "https://kestrel.example/plans", contentType: "text/html", body: page }).title).toBe("Plans for every fleet");
  });

  it("drops the site boilerplate of a corpus page and keeps every section", () => {
    const pricing = extractDocument(pricingPage);
    expect(pricing.title).toBe("Pricing | Lumen Ledger");
    expect(pricing.sections.map((s) => s.headingPath[0])).toEqual([undefined, "Starter", "Growth", "Scale", "Enterprise", "Billing and refunds", "Discounts"]);
    for (const boilerplate of ["Accept all", "Start free trial", "Registered in Ireland", "analytics"]) expect(pricing.text).not.toContain(boilerplate);
  });

  it("reads a short page without the site's navigation, header and footer", () => {
    const tiny = `<html><head><title>Contact</title></head><body><header><a href="/">Kestrel</a></header><nav><a href="/">Home</a> <a href="/about">About us</a></nav><p>Write to hello@kestrel.example.</p><footer>Imprint</footer></body></html>`;
    const doc = extractDocument({ url: "https://kestrel.example/contact", contentType: "text/html", body: tiny });
    expect(doc.title).toBe("Contact");
    expect(doc.text).toBe("Write to hello@kestrel.example.");
  });

  it("keeps a header that belongs to the article", () => {
    const page = `<html><head><title>News</title></head><body><header>Site name</header><article><header><p>Kestrel opened a depot in Bristol this spring, its fourth in England, after two years of growth in the south west.</p></header><p>The depot serves forty couriers and runs from six in the morning until ten at night, every day of the week including bank holidays.</p></article></body></html>`;
    const doc = extractDocument({ url: "https://kestrel.example/news", contentType: "text/html", body: page });
    expect(doc.text).toContain("Kestrel opened a depot in Bristol");
    expect(doc.text).not.toContain("Site name");
  });

  it("gives an empty document for a page without text", () => {
    const doc = extractDocument({ url: "https://kestrel.example/blank", contentType: "text/html", body: "<html><head><title>Blank</title></head><body></body></html>" });
    expect(doc).toMatchObject({ title: "Blank", sections: [], text: "", leadSentences: [], wordCount: 0 });
  });
});

describe("extractPlainText (text and writing-sample sources)", () => {
  const markdown = [
    "# Field notes on dispatch",
    "",
    "We spent a week riding along with our drivers.",
    "What we learned changed our roadmap.",
    "",
    "## Mornings",
    "",
    "Loading the vans takes **longer** than the routes suggest.",
    "",
    "### Cold storage",
    "",
    "- Refrigerated vans leave first.",
    "- Each stop gets a [temperature log](https://kestrel.example/logs).",
    "",
    "## Afternoons",
    "",
    "Traffic decides everything after two o'clock.",
  ].join("\n");

  it("turns markdown headings into heading paths and takes the title from the top heading", () => {
    const doc = extractPlainText({ content: markdown });
    expect(doc.title).toBe("Field notes on dispatch");
    expect(doc.sections).toEqual([
      { headingPath: [], text: "We spent a week riding along with our drivers. What we learned changed our roadmap." },
      { headingPath: ["Mornings"], text: "Loading the vans takes longer than the routes suggest." },
      { headingPath: ["Mornings", "Cold storage"], text: "Refrigerated vans leave first.\nEach stop gets a temperature log." },
      { headingPath: ["Afternoons"], text: "Traffic decides everything after two o'clock." },
    ]);
    expect(doc.url).toBe("");
    expect(doc.leadSentences[0]).toBe("We spent a week riding along with our drivers.");
  });

  it("prefers the given title and reads text without headings as one section", () => {
    const doc = extractPlainText({ title: "  Brand story ", content: "Kestrel began in a garage in Leeds.\n\nToday it routes ten thousand vans.", url: "kb://text/1" });
    expect(doc.title).toBe("Brand story");
    expect(doc.url).toBe("kb://text/1");
    expect(doc.sections).toEqual([{ headingPath: [], text: "Kestrel began in a garage in Leeds.\nToday it routes ten thousand vans." }]);
    expect(doc.wordCount).toBe(13);
  });

  it("ends a list item or a line of notes without its full stop, and leaves labels and wrapped prose as written (notes pasted without full stops were refused whole)", () => {
    const listed = extractPlainText({ title: "Notes", content: "## Chain\n\n- Clean and oil the chain every few hundred kilometres\n- Tools\n- A dry chain squeaks and wears the sprockets faster!" });
    expect(listed.sections[0].text).toBe("Clean and oil the chain every few hundred kilometres.\nTools\nA dry chain squeaks and wears the sprockets faster!");
    const lines = extractPlainText({ title: "Notes", content: "Check tyre pressure once a week\nThe recommended pressure is printed on the tyre\n12 hours of sun suit tomatoes best" });
    expect(lines.sections[0].text).toBe("Check tyre pressure once a week. The recommended pressure is printed on the tyre. 12 hours of sun suit tomatoes best.");
    // Wrapped prose ends its last line with a full stop: its lines are one paragraph, as written.
    const wrapped = extractPlainText({ title: "Notes", content: "Kestrel began in a garage\nin Leeds in 2009 and moved\nTo York later." });
    expect(wrapped.sections[0].text).toBe("Kestrel began in a garage in Leeds in 2009 and moved To York later.");
  });

  it("falls back to the first words of the text for the title", () => {
    expect(extractPlainText({ content: "Our drivers know every street. They also know every café." }).title).toBe("Our drivers know every street.");
  });

  it("is the path for text/plain and text/markdown bodies", () => {
    const doc = extractDocument({ url: "https://kestrel.example/notes.md", contentType: "text/markdown; charset=utf-8", body: markdown });
    expect(doc.title).toBe("Field notes on dispatch");
    expect(doc.sections).toHaveLength(4);
  });
});

describe("extractableKind", () => {
  it.each([
    ["text/html; charset=utf-8", "html"],
    ["application/xhtml+xml", "html"],
    ["TEXT/PLAIN", "text"],
    ["text/markdown", "text"],
    ["application/pdf", null],
    ["image/png", null],
  ])("%s → %s", (contentType, kind) => {
    expect(extractableKind(contentType)).toBe(kind);
  });

  it("refuses to extract a content type without text", () => {
    expect(() => extractDocument({ url: "https://kestrel.example/a.pdf", contentType: "application/pdf", body: "%PDF" })).toThrow(/application\/pdf/);
  });
});

describe("extraction keeps numbering and preformatted text out of prose", () => {
  const html = `<html><head><title>Debian reference</title></head><body><main>
    <h1>Chapter 2. Debian package management</h1>
    <h2>2.7.3. Tweaking candidate version</h2>
    <p>The candidate version is selected by the pin priority of each release.</p>
    <pre class="screen">$ sudo apt-get update
Reading package lists... Done
Package: *
Pin: release a=unstable
Pin-Priority: 800</pre>
    <p>Setting the priority above 1000 allows downgrades of installed packages.</p>
    <h3>14.2.2. Moving from iptables to nftables</h3>
    <p>The nftables framework replaces the older iptables tools for packet filtering on Debian.</p>
  </main></body></html>`;

  it("strips source numbering from headings and the title", () => {
    expect(cleanHeading("14.2.2. Moving from iptables to nftables")).toBe("Moving from iptables to nftables");
    expect(cleanHeading("Chapter 2. Debian package management")).toBe("Debian package management");
    expect(cleanHeading("A.1. The Debian maze")).toBe("The Debian maze");
    expect(cleanHeading("3 ways to cut drive time")).toBe("3 ways to cut drive time");
    expect(cleanHeading("Appendix B: Glossary")).toBe("Glossary");
    expect(cleanHeading("Part IV. Administration")).toBe("Administration");
    // A label followed by a word is a heading's own words.
    expect(cleanHeading("Part of the problem")).toBe("Part of the problem");
    expect(cleanHeading("Teil der Lösung")).toBe("Teil der Lösung");
    const doc = extractDocument({ url: "https://example.org/ch02.html", contentType: "text/html", body: html });
    const headings = doc.sections.flatMap((s) => s.headingPath);
    expect(headings).toContain("Tweaking candidate version");
    expect(headings).toContain("Moving from iptables to nftables");
    expect(headings.some((h) => /^\d/.test(h))).toBe(false);
  });

  it("keeps shell sessions and configuration apart from the prose sentences", () => {
    const doc = extractDocument({ url: "https://example.org/ch02.html", contentType: "text/html", body: html });
    const prose = doc.sections.map((s) => s.text).join("\n");
    expect(prose).toContain("The candidate version is selected by the pin priority of each release.");
    expect(prose).not.toMatch(/apt-get|Pin-Priority|Reading package lists/);
    expect(doc.sections.flatMap((s) => s.code ?? []).join("\n")).toContain("Pin-Priority: 800");
  });

  it("drops footnote marks (DocBook, Wikipedia, markdown) from the prose, and keeps a same-page link that is words", () => {
    const page = `<html><head><title>Packaging</title></head><body><main><h1>Packaging</h1><h2>The control file</h2>
      <p>Add the Vcs fields between lines 6 and 7 <a href="#ftn.idm35" class="footnote" id="idm35"><sup class="footnote">[35]</sup></a>. Each rule
      names its target. <a href="#ftn.idm42" class="footnote"><sup class="footnote">[42]</sup></a> The dh command runs the steps in order.</p>
      <p>Debian was first announced in 1993<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup>, by Ian Murdock.</p>
      <p>The archive holds main and contrib<sup id="fnref:2"><a class="footnote-ref" href="#fn:2">2</a></sup>; non-free is apart.</p>
      <p>Read the <a href="#policy">policy chapter</a> first, then step 2 of the guide.</p>
      <p>Upload the package to the archive. <a href="#ftn.idm83" class="footnote"><sup class="footnote">[83]</sup></a>. Tools make it easier.</p></main></body></html>`;
    const prose = extractDocument({ url: "https://example.org/dreq.html", contentType: "text/html", body: page }).sections.map((s) => s.text).join("\n");
    expect(prose).toContain("Add the Vcs fields between lines 6 and 7. Each rule names its target. The dh command runs the steps in order.");
    expect(prose).toContain("Debian was first announced in 1993, by Ian Murdock.");
    expect(prose).toContain("The archive holds main and contrib; non-free is apart.");
    expect(prose).toContain("Read the policy chapter first, then step 2 of the guide.");
    expect(prose).toContain("Upload the package to the archive. Tools make it easier.");
  });

  it("leaves a page's footnotes out of its text, whatever wrote them (DocBook, Sphinx, Pandoc, Wikipedia)", () => {
    const foot = (notes: string) => `<html><head><title>Rules</title></head><body><main><h1>Rules</h1><h2>Targets</h2>
      <p>Each rule names its target. <a href="#ftn.1" class="footnote"><sup class="footnote">[1]</sup></a> The dh command runs the steps in order.</p>
      <p>The clean target removes what the build made, so a second build starts afresh.</p>${notes}</main></body></html>`;
    const notes = [
      `<div class="footnotes"><div id="ftn.1" class="footnote"><p><sup>[1]</sup> This target is used by dpkg-buildpackage -A.</p></div></div>`,
      `<aside class="footnote-list brackets"><aside class="footnote brackets" id="id7" role="note"><p>This target is used by dpkg-buildpackage -A.</p></aside></aside>`,
      `<section class="footnotes" role="doc-endnotes"><ol><li id="fn1"><p>This target is used by dpkg-buildpackage -A.</p></li></ol></section>`,
      `<div class="reflist"><ol class="references"><li id="cite_note-1">This target is used by dpkg-buildpackage -A.</li></ol></div>`,
    ];
    for (const html of notes) {
      const prose = extractDocument({ url: "https://example.org/rules.html", contentType: "text/html", body: foot(html) }).sections.map((s) => s.text).join("\n");
      expect(prose).toContain("Each rule names its target. The dh command runs the steps in order.");
      expect(prose).toContain("The clean target removes what the build made");
      expect(prose).not.toContain("dpkg-buildpackage -A");
    }
  });

  it("reads fenced blocks of pasted markdown as code", () => {
    const doc = extractPlainText({ content: "# Pinning\n\nPinning keeps a package at a chosen version.\n\n```\nPackage: foo\nPin: version 1.2*\n```\n\nThe pin file lives in the preferences directory." });
    expect(doc.sections.map((s) => s.text).join("\n")).not.toContain("Pin: version");
    expect(doc.sections.flatMap((s) => s.code ?? [])).toEqual(["Package: foo\nPin: version 1.2*"]);
  });
});

describe("a definition list's term opens its description (the Valgrind manual's options, read at the fifteenth stop)", () => {
  const html = `<html><head><title>Massif: a heap profiler</title></head><body><main>
    <h1>Massif Command-line Options</h1>
    <p>Massif-specific command-line options are listed here, one at a time with what each does to a run.</p>
    <div class="variablelist"><dl>
      <dt><a name="opt.heap"></a><span class="term"><code class="option">--heap=&lt;yes|no&gt; [default: yes] </code></span></dt>
      <dd><p>Specifies whether heap profiling should be done.</p></dd>
      <dt><span class="term"><code class="option">--stacks=&lt;yes|no&gt; [default: no] </code></span></dt>
      <dd><p>Specifies whether stack profiling should be done. This option slows Massif down greatly, and so is off by default.</p><p>Massif assumes that the main stack has size zero at start-up.</p></dd>
      <dt>A term of a glossary that is far too long to be read as the label of its description, longer than twelve words</dt>
      <dd><p>Its description stands on a line of its own.</p></dd>
      <dt>Orphan term</dt>
    </dl></div>
    <p>Every option can also be given in the environment variable VALGRIND_OPTS before the program starts.</p>
  </main></body></html>`;

  it("joins a short term and its description's first line, and leaves the rest as it was", () => {
    const lines = extractDocument({ url: "https://valgrind.example/ms-manual.html", contentType: "text/html", body: html }).sections.flatMap((s) => s.text.split("\n")).filter(Boolean);
    expect(lines).toContain("--heap=<yes|no> [default: yes]: Specifies whether heap profiling should be done.");
    expect(lines).toContain("--stacks=<yes|no> [default: no]: Specifies whether stack profiling should be done. This option slows Massif down greatly, and so is off by default.");
    expect(lines).toContain("Massif assumes that the main stack has size zero at start-up.");
    expect(lines).toContain("Its description stands on a line of its own.");
    expect(lines).toContain("A term of a glossary that is far too long to be read as the label of its description, longer than twelve words");
    expect(lines).toContain("Orphan term");
    expect(lines.filter((l) => /^--(heap|stacks)=/.test(l))).toHaveLength(2);
  });
});
