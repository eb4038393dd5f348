import { CASES } from "../../bench/article-quality/cases";
import readerVerdicts from "../../bench/article-quality/reader-verdicts.json";
import { benchWords, bestWindowShare, fabricatedAddresses, formProblems, onTopicShare, type ApiArticle } from "../../bench/article-quality/checks";
import { parseArticleMarkdown, urlsInText } from "../../bench/article-quality/markdown";

const SITE = "http://127.0.0.1:47310";

function article(over: Partial<ApiArticle>): ApiArticle {
  return {
    id: "a",
    language: "en",
    topic: "APT pinning",
    target_keyword: "APT pinning",
    title: "APT pinning explained",
    meta_title: "APT pinning explained",
    meta_description: "How APT pinning chooses the candidate version of a package.",
    content_markdown: "",
    citations: [],
    title_variants: [],
    faq: [],
    json_ld: {},
    word_count: 0,
    ...over,
  };
}

const MARKDOWN = [
  "APT pinning picks versions [[1]](http://127.0.0.1:47310/ch02.en.html).",
  "## 2.7.3. Tweaking candidate version",
  "The Pin-Priority value decides the candidate \\[2\\]. Xen runs virtual machines.",
  "## Frequently asked questions",
  "### What is APT pinning?",
  "It selects versions.",
  "## Sources",
  "1. [Chapter 2](http://127.0.0.1:47310/ch02.en.html)",
].join("\n\n");

describe("article-quality checks", () => {
  it("splits the markdown into introduction, body, FAQ and sources, without citation marks", () => {
    const sections = parseArticleMarkdown(MARKDOWN, "en", ["What is APT pinning?"]);
    expect(sections.map((s) => s.kind)).toEqual(["intro", "body", "faq", "sources"]);
    expect(sections[0].sentences.map((s) => s.text)).toEqual(["APT pinning picks versions."]);
    expect(sections[1].sentences.map((s) => s.text)).toEqual(["The Pin-Priority value decides the candidate.", "Xen runs virtual machines."]);
  });

  it("judges on topic by the request's hand-written vocabulary only: a heading naming the topic admits nothing", () => {
    const r = onTopicShare(
      [
        { heading: "How pinning works", text: "Pinning keeps a package at its version." },
        { heading: "APT pinning in practice", text: "In practice the preferences file lists packages." },
        { heading: "APT pinning in practice", text: "It is read by apt-get.", first: false },
        { heading: "APT pinning in practice", text: "The ftpmasters maintain the archive." },
        { heading: "APT pinning in practice", text: "Xen runs virtual machines." },
      ],
      ["pin*", "preferences", "candidate version*"],
    );
    expect(r.onTopic).toBe(3);
    expect(r.worst.map((w) => w.text)).toEqual(["The ftpmasters maintain the archive.", "Xen runs virtual machines."]);
  });

  it("lets a reader's label decide the sentences it covers, both ways, and reports the vocabulary's share beside it", () => {
    const body = [
      { heading: "Backup policy", text: "Data should be on different disks and machines." },
      { heading: "Backup policy", text: "Keep backups off site." },
      { heading: "Backup policy", text: "Restore tests need a backup first." },
      { heading: "Backup policy", text: "The ftpmasters maintain the archive." },
    ];
    const labels = new Map([
      ["Data should be on different disks and machines.", true],
      ["Restore tests need a backup first.", false],
    ]);
    const r = onTopicShare(body, ["backup*", "restor*"], (text) => labels.get(text));
    expect(r.off.map((o) => o.text)).toEqual(["Restore tests need a backup first.", "The ftpmasters maintain the archive."]);
    expect([r.share, r.vocabularyShare, r.labelled, r.overruled]).toEqual([0.5, 0.5, 2, 2]);
    // A label never spreads: an unlabelled sentence is still judged by the vocabulary.
    expect(onTopicShare(body, ["backup*", "restor*"]).off.map((o) => o.text)).toEqual(["Data should be on different disks and machines.", "The ftpmasters maintain the archive."]);
  });

  it("holds reader labels only for the bench's cases, each sentence labelled once, each off-topic one with the reader's reason", () => {
    const ids = new Set(CASES.map((c) => `${c.request.language}-${c.id}`));
    for (const [id, labels] of Object.entries(readerVerdicts.cases)) {
      expect([id, ids.has(id)]).toEqual([id, true]);
      const off = labels.off.map((o) => o.text);
      expect(labels.on.filter((t) => off.includes(t))).toEqual([]);
      expect(labels.off.filter((o) => !o.why.trim())).toEqual([]);
    }
  });

  it("matches vocabulary whole, or as a word's start when it ends in *, in any language", () => {
    const r = onTopicShare(
      [
        { heading: "", text: "Die Firewall filtert Pakete." },
        { heading: "", text: "Eine Datensicherungsstrategie ist nötig." },
        { heading: "", text: "Die Sicherung erfolgt täglich." },
        { heading: "", text: "Wiederherstellungen dauern länger." },
        { heading: "", text: "Eine Unterbrechung ist selten." },
      ],
      ["datensicher*", "sicherung*", "wiederherstell*"],
    );
    expect(r.worst.map((w) => w.text)).toEqual(["Eine Unterbrechung ist selten.", "Die Firewall filtert Pakete."]);
  });

  it("finds a claim's words within three consecutive sentences, not spread over a page", () => {
    const page = ["APT reads the preferences file.", "Each entry has a Pin-Priority.", "Higher values win.", "Unrelated text.", "More unrelated text."].map((s) => benchWords(s));
    expect(bestWindowShare(benchWords("The preferences file gives each entry a Pin-Priority; higher values win."), page)).toBeGreaterThanOrEqual(0.8);
    expect(bestWindowShare(benchWords("Xen and KVM run virtual machines on Debian."), page)).toBeLessThan(0.8);
  });

  it("reports addresses that are not pages of the site, the platform or schema.org", () => {
    const allowed = (url: string) => url.startsWith(`${SITE}/`) || url.startsWith("https://schema.org");
    const found = fabricatedAddresses(
      article({
        content_markdown: `See [[1]](${SITE}/ch02.en.html) and «http://deb.debian.org/debian/».`,
        citations: [{ claim: "c", url: "https://invented.example/page", title: "t" }],
        json_ld: { "@context": "https://schema.org", citation: [`${SITE}/ch02.en.html`] },
        derivatives: { linkedin: "Read https://elsewhere.example/x now" },
      }),
      allowed,
    );
    expect(found).toEqual([
      { field: "content_markdown", url: "http://deb.debian.org/debian/" },
      { field: "citations", url: "https://invented.example/page" },
      { field: "derivatives", url: "https://elsewhere.example/x" },
    ]);
    expect(urlsInText("[x](http://a.example/p) <https://b.example/q>.")).toEqual(["http://a.example/p", "https://b.example/q"]);
  });

  it("flags numbered, doubled and repeated headings, malformed FAQ entries, cut meta and code in prose", () => {
    const md = [
      "Intro sentence about APT pinning.",
      "## 14.2.2. Moving from iptables to nftables",
      "Pinning is configured per package. The log shows 2024-01-02 10:11:12 apt started.",
      "## How How pinning works",
      "Run $ sudo apt-get update before pinning.",
      "## 14.2.2. Moving from iptables to nftables",
      "Pinning is kept per host.",
    ].join("\n\n");
    const a = article({
      content_markdown: md,
      meta_title: "x".repeat(61),
      meta_description: "APT pinning keeps packages at chosen versions and …",
      faq: [
        { question: "What does if one do", answer: "Pinning is configured per package." },
        { question: "What should you know about How How pinning works?", answer: "It is a preference." },
      ],
    });
    const sections = parseArticleMarkdown(md, "en", a.faq.map((f) => f.question));
    const kinds = formProblems(a, sections, []).map((p) => p.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        "heading numbered",
        "heading doubled word",
        "heading repeated",
        "prose: log timestamp",
        "prose: shell prompt",
        "faq question form",
        "faq answer copies body",
        "faq heading in question",
        "meta_title > 60",
        "meta_description cut",
      ]),
    );
    const clean = article({ content_markdown: "Intro about APT pinning.\n\n## Why pinning matters\n\nPinning keeps a package stable.", faq: [{ question: "What is APT pinning?", answer: "A preference for versions." }] });
    expect(formProblems(clean, parseArticleMarkdown(clean.content_markdown!, "en", ["What is APT pinning?"]), [])).toEqual([]);
    // A short noun phrase that is also a source's heading is how a question asks, not a heading pasted in.
    const asked = article({ content_markdown: "Intro about backups.\n\n## Why backups matter\n\nBackups keep data.", faq: [{ question: "What are backup and recovery operations?", answer: "Copies kept to restore data." }] });
    expect(formProblems(asked, parseArticleMarkdown(asked.content_markdown!, "en", ["What are backup and recovery operations?"]), ["Backup and recovery"])).toEqual([]);
    // Nor is a source's heading that is itself a question, asked as it stands (a FAQ page's); run into another, it is.
    const headed = (question: string) => article({ content_markdown: "Intro about uploads.\n\n## Uploads\n\nUploads go to the archive.", faq: [{ question, answer: "who-uploads(1) names the uploader." }] });
    const kindsOf = (question: string) => formProblems(headed(question), parseArticleMarkdown(headed(question).content_markdown!, "en", [question]), ["Who uploaded the package?"]).map((p) => p.kind);
    expect(kindsOf("Who uploaded the package?")).toEqual([]);
    expect(kindsOf("How do you find out who uploaded the package?")).toEqual(["faq heading in question"]);
  });

  it("requires the Spanish opening question mark", () => {
    const a = article({ language: "es", faq: [{ question: "Qué es la gestión de paquetes?", answer: "Una forma de instalar software." }], meta_description: "La gestión de paquetes instala software." });
    expect(formProblems(a, [], []).map((p) => p.kind)).toEqual(["faq question form"]);
  });
});

describe("the article's sentences as the bench reads them", () => {
  it("knows which sentences a citation mark follows, so the uncited framing sentence is not judged", () => {
    const [intro] = parseArticleMarkdown("This article looks at composting. Meat attracts rats. [[1]](https://x.test/a) Tea bags with plastic mesh do not break down. [[2]](https://x.test/b)\n", "en", []);
    expect(intro.sentences.map((s) => [s.text, s.cited])).toEqual([
      ["This article looks at composting.", false],
      ["Meat attracts rats.", true],
      ["Tea bags with plastic mesh do not break down.", true],
    ]);
  });

  it("judges no empty sentence (read: an empty \"off topic\" sentence after one ending in an escaped character)", () => {
    const [intro] = parseArticleMarkdown('The "dpkg -S file\\_name\\_pattern" can be used to search installed files. [[1]](https://x.test/a) But this overlooks files created by the maintainer scripts. [[1]](https://x.test/a)\n', "en", []);
    expect(intro.sentences.map((s) => s.text.length > 0 && s.cited)).toEqual([true, true]);
  });

  it("reads the stop after a quotation ending on an ellipsis as the end of its sentence, not a sentence", () => {
    const [intro] = parseArticleMarkdown('The second trace follows the text "This conflicts with a previous write of size 4 ...". [[2]](https://x.test/hg) Helgrind shows both accesses. [[2]](https://x.test/hg)\n', "en", []);
    expect(intro.sentences.map((s) => [s.text, s.cited])).toEqual([
      ['The second trace follows the text "This conflicts with a previous write of size 4 ...".', true],
      ["Helgrind shows both accesses.", true],
    ]);
  });
});
