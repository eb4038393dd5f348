import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small brand website served on 127.0.0.1 for crawler, ingestion and retrieval tests: the
 * fictional Kestrel Grove Software, with distinct topics on distinct pages (products, pricing,
 * history, security, support, a case study) and the traps a crawler must handle (robots.txt,
 * sitemap index, redirect, PDF and PNG, slow and oversized pages, off-site and private links,
 * duplicate URLs). `FIXTURE_PAGES` carries the text and facts so tests can write questions.
 */

export interface FixtureFact {
  question: string;
  answer: string;
}

export interface FixturePage {
  path: string;
  title: string;
  topic: string;
  sections: { heading: string; paragraphs: string[] }[];
  facts: FixtureFact[];
}

export const FIXTURE_COMPANY = "Kestrel Grove Software";

export const FIXTURE_PAGES: FixturePage[] = [
  {
    path: "/",
    title: "Kestrel Grove Software — scheduling for field-service trades",
    topic: "overview",
    sections: [
      {
        heading: "Field-service scheduling built by people who dispatched",
        paragraphs: [
          "Kestrel Grove Software builds scheduling, mobile and invoicing tools for heating, cooling, plumbing and electrical contractors. Our customers run crews of three to three hundred technicians, and every one of them starts the day with the same question: who goes where, in what order, with which parts on the van.",
          "The Kestrel platform answers that question on one screen. Dispatchers drag jobs onto a live board, technicians receive their day on the Kestrel Field app, and the invoice is ready the moment the customer signs. More than 38,000 technicians are scheduled through Kestrel every working day.",
        ],
      },
      {
        heading: "Why contractors switch to Kestrel",
        paragraphs: [
          "Most of our customers come from whiteboards, spreadsheets or general-purpose calendars. They switch because those tools do not understand drive time, technician skills or the emergency call that arrives at 10:40 on a Tuesday. Kestrel keeps a slot open for emergencies, re-plans routes when a job overruns, and tells the customer when the technician is on the way.",
          "Office staff seats are free on every plan, so dispatchers, customer service and bookkeeping can all work in the same system without a per-seat negotiation.",
        ],
      },
    ],
    facts: [
      { question: "What trades does Kestrel Grove Software serve?", answer: "heating, cooling, plumbing and electrical contractors" },
      { question: "How many technicians are scheduled through Kestrel every working day?", answer: "more than 38,000" },
    ],
  },
  {
    path: "/products",
    title: "Products — Kestrel Dispatch, Kestrel Field and Kestrel Ledger",
    topic: "products",
    sections: [
      {
        heading: "Kestrel Dispatch",
        paragraphs: [
          "Kestrel Dispatch is the scheduling board at the centre of the platform. Jobs are dragged onto technicians' timelines, and skills matching makes sure that only technicians certified for commercial refrigeration, gas lines or backflow testing are offered those jobs.",
          "Route batching groups the day's jobs by neighbourhood, keeping each technician within a 15-minute drive radius where possible, and re-optimises the remaining route whenever a job runs long. Customers receive an automatic text message with the technician's arrival window.",
        ],
      },
      {
        heading: "Kestrel Field",
        paragraphs: [
          "Kestrel Field is the mobile app for technicians on iOS and Android. It works offline for up to 72 hours, which matters in basements, crawl spaces and rural service areas, and synchronises automatically once a connection returns.",
          "Technicians capture photos, checklists and customer signatures in the app. Parts recorded on a job are deducted from the van's inventory, and the app suggests a restock list at the end of the day.",
        ],
      },
      {
        heading: "Kestrel Ledger",
        paragraphs: [
          "Kestrel Ledger turns a completed job into an invoice without retyping. It integrates with QuickBooks Online and Xero, accepts card and ACH payments, and pays out to the contractor's bank account within two business days.",
          "Kestrel also offers a REST API with webhooks for customers who connect their own systems; the API allows 600 requests per minute per account. Calendar sync works with Google Calendar and Microsoft 365.",
        ],
      },
    ],
    facts: [
      { question: "How long does the Kestrel Field app work offline?", answer: "up to 72 hours" },
      { question: "Which accounting systems does Kestrel Ledger integrate with?", answer: "QuickBooks Online and Xero" },
      { question: "How quickly does Kestrel Ledger pay out?", answer: "within two business days" },
      { question: "What is the Kestrel API rate limit?", answer: "600 requests per minute per account" },
    ],
  },
  {
    path: "/pricing",
    title: "Pricing — Kestrel Grove Software",
    topic: "pricing",
    sections: [
      {
        heading: "Plans",
        paragraphs: [
          "The Starter plan costs $29 per technician per month for teams of up to 5 technicians and includes Kestrel Dispatch and Kestrel Field.",
          "The Growth plan costs $49 per technician per month with no limit on technicians. It adds Kestrel Ledger, route batching and a dedicated onboarding specialist.",
          "The Enterprise plan is priced on request for fleets of at least 50 technicians. It adds single sign-on through SAML, a 24/7 emergency support line and a 99.95% uptime commitment.",
        ],
      },
      {
        heading: "Discounts, trials and fees",
        paragraphs: [
          "Paying annually saves 15% on every plan. Every plan starts with a 21-day free trial that does not require a credit card, and office staff seats are free.",
          "Payments collected through Kestrel Ledger cost 2.7% plus 30 cents per card transaction and 0.8% per ACH transfer, capped at $5.",
        ],
      },
    ],
    facts: [
      { question: "How much does the Kestrel Starter plan cost?", answer: "$29 per technician per month, up to 5 technicians" },
      { question: "How much does the Kestrel Growth plan cost?", answer: "$49 per technician per month" },
      { question: "What is the minimum fleet size for the Enterprise plan?", answer: "50 technicians" },
      { question: "How much does annual billing save?", answer: "15%" },
      { question: "How long is the free trial?", answer: "21 days, no credit card required" },
    ],
  },
  {
    path: "/about",
    title: "About us — the history of Kestrel Grove Software",
    topic: "company history",
    sections: [
      {
        heading: "Where we come from",
        paragraphs: [
          "Kestrel Grove Software was founded in 2014 in Duluth, Minnesota, by Maren Okafor and Tobias Lindqvist. Maren had spent eight winters dispatching technicians for her family's heating company and was tired of rebuilding the schedule on a whiteboard every time a furnace failed at dawn. Tobias, a logistics engineer, wrote the first version as a spreadsheet add-on.",
          "Our first paying customer, in 2015, was Polar Comfort Heating & Cooling in Duluth, which still schedules every job through Kestrel today.",
        ],
      },
      {
        heading: "Milestones",
        paragraphs: [
          "We launched the Kestrel Field mobile app in 2017. In 2019 we raised a $12 million Series A round led by Northbeam Ventures, and in 2021 we released Kestrel Ledger for invoicing and payments.",
          "In 2022 we opened our European office in Lisbon, Portugal, to serve customers in Europe during their working hours. Today Kestrel Grove Software has 140 employees and serves 2,300 contractors in 11 countries.",
        ],
      },
    ],
    facts: [
      { question: "When and where was Kestrel Grove Software founded?", answer: "2014, in Duluth, Minnesota" },
      { question: "Who founded Kestrel Grove Software?", answer: "Maren Okafor and Tobias Lindqvist" },
      { question: "Who led Kestrel's Series A?", answer: "Northbeam Ventures, $12 million in 2019" },
      { question: "Where is Kestrel's European office?", answer: "Lisbon, Portugal, opened in 2022" },
      { question: "How many customers does Kestrel serve?", answer: "2,300 contractors in 11 countries" },
    ],
  },
  {
    path: "/security",
    title: "Security and compliance — Kestrel Grove Software",
    topic: "security",
    sections: [
      {
        heading: "Compliance",
        paragraphs: [
          "Kestrel Grove Software holds a SOC 2 Type II report, audited every year by Brightline Assurance. The latest report covers the period ending March 2024 and is available to customers under a non-disclosure agreement.",
          "Card payments are handled by a PCI DSS Level 1 payment processor; Kestrel never stores full card numbers.",
        ],
      },
      {
        heading: "Hosting and encryption",
        paragraphs: [
          "Kestrel runs on Amazon Web Services. Customers in North America are hosted in the us-east-2 region in Ohio and customers in Europe in the eu-central-1 region in Frankfurt; the region is chosen at signup and data does not leave it.",
          "Data is encrypted at rest with AES-256 and in transit with TLS 1.2 or newer. Backups are taken every 6 hours and retained for 35 days, and a full restore is tested every quarter.",
        ],
      },
      {
        heading: "Access and testing",
        paragraphs: [
          "Every user can protect their account with two-factor authentication, and Enterprise customers can require single sign-on through SAML 2.0. Permissions are role-based, so a technician never sees invoices.",
          "An external firm performs penetration tests twice a year. Security researchers can report vulnerabilities to security@kestrelgrove.example and receive a response within two business days.",
        ],
      },
    ],
    facts: [
      { question: "Which security audit does Kestrel hold?", answer: "SOC 2 Type II, audited yearly by Brightline Assurance" },
      { question: "Where is European customer data hosted?", answer: "AWS eu-central-1 in Frankfurt" },
      { question: "How often are Kestrel backups taken and how long are they kept?", answer: "every 6 hours, retained for 35 days" },
      { question: "How often are penetration tests performed?", answer: "twice a year" },
    ],
  },
  {
    path: "/support",
    title: "Support — Kestrel Grove Software",
    topic: "support",
    sections: [
      {
        heading: "Hours and channels",
        paragraphs: [
          "Our support team answers Monday to Friday from 7:00 to 19:00 US Central Time, and on Saturdays from 8:00 to 12:00 for urgent dispatch problems. Every customer can reach us through in-app chat or at support@kestrelgrove.example; Growth and Enterprise customers can also call us.",
          "Enterprise customers have a 24/7 emergency line and a named customer success manager.",
        ],
      },
      {
        heading: "Response targets",
        paragraphs: [
          "Priority 1 issues, such as a dispatch board that does not load, receive a response within 1 hour. Priority 2 issues receive a response within 4 business hours, and Priority 3 questions by the next business day.",
        ],
      },
      {
        heading: "Onboarding",
        paragraphs: [
          "Growth plans include an onboarding specialist and three live training sessions. We import customers, equipment and job history from spreadsheets, ServiceTitan and Jobber, so most teams dispatch their first real day within two weeks.",
        ],
      },
    ],
    facts: [
      { question: "What are Kestrel's support hours?", answer: "Monday to Friday 7:00–19:00 US Central Time, Saturday 8:00–12:00 for urgent dispatch problems" },
      { question: "How fast are Priority 1 issues answered?", answer: "within 1 hour" },
      { question: "What does onboarding on the Growth plan include?", answer: "an onboarding specialist and three live training sessions" },
    ],
  },
  {
    path: "/blog/",
    title: "Blog — Kestrel Grove Software",
    topic: "blog index",
    sections: [
      {
        heading: "Notes from the dispatch desk",
        paragraphs: [
          "The Kestrel blog collects customer stories, product notes and lessons from a decade of scheduling trades. Our newest post follows Polar Comfort Heating & Cooling through a winter pilot of route batching.",
          "We publish once or twice a month. Product announcements also appear in the in-app release notes.",
        ],
      },
    ],
    facts: [],
  },
  {
    path: "/blog/route-batching-case-study",
    title: "How route batching cut drive time by 18% at Polar Comfort",
    topic: "case study",
    sections: [
      {
        heading: "The problem",
        paragraphs: [
          "Polar Comfort Heating & Cooling runs 31 technicians across Duluth and the surrounding towns. In winter, emergency furnace calls used to scatter every technician's day across the map, and drive time averaged 2 hours and 10 minutes per technician per day.",
        ],
      },
      {
        heading: "The pilot",
        paragraphs: [
          "During a six-week pilot in the winter of 2023, Polar Comfort switched on route batching in Kestrel Dispatch. Jobs were clustered within a 15-minute drive radius, and two emergency slots per technician were kept open each morning.",
          "Average drive time fell to 1 hour and 47 minutes per technician per day, a reduction of 18%. Completed jobs per technician rose from 4.1 to 4.6 a day, and fuel costs dropped by about $4,800 a month.",
          "\"We stopped arguing with the whiteboard,\" says Dana Whitfield, operations manager at Polar Comfort. \"The board re-plans itself when a job runs long, and the technicians trust the route.\"",
        ],
      },
    ],
    facts: [
      { question: "How much did route batching reduce drive time at Polar Comfort?", answer: "18%, from 2 hours 10 minutes to 1 hour 47 minutes per technician per day" },
      { question: "How many technicians does Polar Comfort run?", answer: "31" },
      { question: "How long was the Polar Comfort pilot?", answer: "six weeks, in the winter of 2023" },
    ],
  },
];

/** The plain-text page (served as text/plain), linked from /support. */
export const FIXTURE_TEXT_PAGE = {
  path: "/docs/getting-started.txt",
  text: [
    "Getting started with Kestrel",
    "",
    "1. Create your account and choose your data region (North America or Europe).",
    "2. Invite your technicians. Each technician receives a text message with a link to install Kestrel Field.",
    "3. Import your customers from a CSV file with the columns name, address and phone.",
    "4. Draw your service zones on the map so route batching knows your territory.",
    "5. Schedule your first job. The default appointment window is 2 hours.",
    "",
  ].join("\n"),
  facts: [{ question: "What is the default appointment window in Kestrel?", answer: "2 hours" }] as FixtureFact[],
};

/** Text only the robots-disallowed page carries: it must never appear in anything crawled. */
export const FIXTURE_PRIVATE_MARKER = "CONFIDENTIAL-ROADMAP-7731";

/**
 * What a crawl of the start URL keeps and skips, given pageTimeoutMs below `slowMs`, maxBytesPerPage
 * below `hugeBytes`, maxDepth ≥ 2 and maxPages ≥ 9. Paths of kept pages are final URLs.
 */
export const FIXTURE_EXPECTATIONS = {
  keptPaths: [...FIXTURE_PAGES.map((p) => p.path), FIXTURE_TEXT_PAGE.path].sort(),
  skipped: {
    "/files/kestrel-datasheet.pdf": "content_type",
    "/images/dispatch-board.png": "content_type",
    "/slow": "timeout",
    "/huge": "too_large",
    "/private/roadmap": "robots",
    "/careers": "http_status",
    "/?utm_source=newsletter": "duplicate",
  } as Record<string, string>,
  neverRequested: ["/private/roadmap"],
  redirects: { "/old-pricing": "/pricing" } as Record<string, string>,
};

export interface FixtureSiteOptions {
  /** How long /slow and the binary files take to finish their bodies. Default 30 s. */
  slowMs?: number;
  /** Size of /huge. Default 3 MiB, above the crawler's default 2 MiB bound. */
  hugeBytes?: number;
}

export interface FixtureSite {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Path and query of every request received, in order. */
  requests: string[];
  /** Paths of responses the client closed before their body ended. */
  abandoned: string[];
  /** A second site the fixture links to: a crawler must not follow the link. */
  offsite: { url: string; requests: string[] };
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Extra body links per page: the crawl graph and its traps. */
function pageLinks(path: string, offsiteUrl: string): string[] {
  switch (path) {
    case "/":
      return [
        `<a href="/?utm_source=newsletter">Read this page from our newsletter</a>`,
        `<a href="/products#dispatch">See Kestrel Dispatch</a>`,
        `<a href="#top">Back to top</a>`,
        `<a href="mailto:hello@kestrelgrove.example">Email us</a>`,
        `<a href="tel:+12185550142">Call us</a>`,
        `<a href="javascript:void(0)">Open chat</a>`,
        `<a href="${offsiteUrl}/partners/kestrel">Our installation partner</a>`,
      ];
    case "/products":
      return [
        `<a href="/files/kestrel-datasheet.pdf">Download the datasheet (PDF)</a>`,
        `<a href="/images/dispatch-board.png">Screenshot of the dispatch board</a>`,
        `<a href="security">How we protect your data</a>`,
      ];
    case "/about":
      return [`<a href="/private/roadmap">Internal roadmap</a>`, `<a href="/careers">Careers</a>`];
    case "/support":
      return [`<a href="/docs/getting-started.txt">Getting started guide</a>`, `<a href="/slow">System status</a>`];
    case "/blog/":
      return [`<a href="route-batching-case-study">How route batching cut drive time by 18%</a>`];
    case "/blog/route-batching-case-study":
      return [`<a href="../support">Talk to support about route batching</a>`, `<a href="/huge">Full changelog</a>`];
    default:
      return [];
  }
}

const NAV = [
  ["/", "Home"],
  ["/products", "Products"],
  ["/old-pricing", "Pricing"],
  ["/about", "About"],
  ["/security", "Security"],
  ["/support", "Support"],
  ["/blog/", "Blog"],
];

function renderPage(page: FixturePage, offsiteUrl: string): string {
  const canonical = page.path === "/" ? `<link rel="canonical" href="/">` : "";
  const nav = NAV.map(([href, label]) => `<a href="${href}">${label}</a>`).join(" | ");
  const sections = page.sections
    .map((s) => `<section><h2>${escapeHtml(s.heading)}</h2>${s.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}</section>`)
    .join("\n");
  const links = pageLinks(page.path, offsiteUrl).map((a) => `<li>${a}</li>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>${canonical}
<style>body { font-family: sans-serif }</style><script>window.analytics = []</script></head>
<body id="top"><header><nav>${nav}</nav></header>
<main><h1>${escapeHtml(page.title)}</h1>
${sections}
<ul>${links}</ul></main>
<footer><p>&copy; ${FIXTURE_COMPANY}, Duluth, Minnesota.</p></footer></body></html>`;
}

const PRIVATE_PAGE = `<!doctype html><html><head><title>Internal roadmap</title></head><body><h1>Internal roadmap</h1>
<p>${FIXTURE_PRIVATE_MARKER}: Kestrel Copilot, an AI dispatch assistant, is planned for the third quarter. Not for publication.</p></body></html>`;

function sitemapXml(kind: "index" | "pages" | "blog", base: string): string {
  const head = `<?xml version="1.0" encoding="UTF-8"?>\n`;
  const ns = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`;
  if (kind === "index") {
    return `${head}<sitemapindex ${ns}><sitemap><loc>${base}/sitemap-pages.xml</loc></sitemap><sitemap><loc>${base}/sitemap-blog.xml</loc></sitemap></sitemapindex>`;
  }
  // A stale sitemap, as real ones are: it lists the old pricing URL and a page robots.txt disallows.
  const paths = kind === "pages" ? ["/", "/products", "/old-pricing", "/about", "/security", "/support", "/private/roadmap"] : ["/blog/", "/blog/route-batching-case-study"];
  return `${head}<urlset ${ns}>${paths.map((p) => `<url><loc>${base}${p}</loc><lastmod>2024-05-01</lastmod></url>`).join("")}</urlset>`;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export async function startFixtureSite(opts: FixtureSiteOptions = {}): Promise<FixtureSite> {
  const slowMs = opts.slowMs ?? 30_000;
  const hugeBytes = opts.hugeBytes ?? 3 * 1024 * 1024;
  const requests: string[] = [];
  const abandoned: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const offsiteRequests: string[] = [];
  const offsite = http.createServer((req, res) => {
    offsiteRequests.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Partner</title><p>Installation partner.</p>");
  });
  const offsiteUrl = await listen(offsite);

  let base = "";
  const pagesByPath = new Map(FIXTURE_PAGES.map((p) => [p.path, p]));
  const server = http.createServer((req, res) => {
    const target = req.url ?? "/";
    requests.push(target);
    const path = new URL(target, base).pathname;
    res.on("close", () => {
      if (!res.writableFinished) abandoned.push(path);
    });
    const page = pagesByPath.get(path);
    if (page) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(renderPage(page, offsiteUrl));
      return;
    }
    switch (path) {
      case "/robots.txt":
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(`# ${FIXTURE_COMPANY}\nUser-agent: *\nDisallow: /private/\n\nUser-agent: GreedyBot\nDisallow: /\n\nSitemap: ${base}/sitemap.xml\n`);
        return;
      case "/sitemap.xml":
      case "/sitemap-pages.xml":
      case "/sitemap-blog.xml": {
        const kind = path === "/sitemap.xml" ? "index" : path === "/sitemap-pages.xml" ? "pages" : "blog";
        res.writeHead(200, { "content-type": "application/xml" }).end(sitemapXml(kind, base));
        return;
      }
      case "/old-pricing":
        res.writeHead(301, { location: "/pricing" }).end();
        return;
      case FIXTURE_TEXT_PAGE.path:
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(FIXTURE_TEXT_PAGE.text);
        return;
      case "/private/roadmap":
        res.writeHead(200, { "content-type": "text/html" }).end(PRIVATE_PAGE);
        return;
      case "/files/kestrel-datasheet.pdf":
      case "/images/dispatch-board.png": {
        // The body trickles: a client that waited for it would time out instead of skipping on the header.
        const size = 1024 * 1024;
        const isPdf = path.endsWith(".pdf");
        res.writeHead(200, { "content-type": isPdf ? "application/pdf" : "image/png", "content-length": String(size) });
        const head = Buffer.alloc(1024);
        head.write(isPdf ? "%PDF-1.4\n" : "\x89PNG\r\n\x1a\n", "latin1");
        res.write(head);
        later(slowMs, () => res.end(Buffer.alloc(size - head.length)));
        return;
      }
      case "/slow":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.write("<!doctype html><title>System status</title><p>All systems");
        later(slowMs, () => res.end(" operational.</p>"));
        return;
      case "/huge": {
        // Chunked, without content-length: the size bound must be enforced while reading.
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        const entry = Buffer.from("<p>Changelog: minor fixes to Kestrel Dispatch, Kestrel Field and Kestrel Ledger.</p>\n".padEnd(1024, " "));
        let sent = 0;
        const pump = () => {
          while (sent < hugeBytes && !res.destroyed) {
            sent += entry.length;
            if (!res.write(entry)) return void res.once("drain", pump);
          }
          if (!res.destroyed) res.end();
        };
        pump();
        return;
      }
      default:
        res.writeHead(404, { "content-type": "text/html" }).end("<!doctype html><title>Not found</title><p>No such page.</p>");
    }
  });
  base = await listen(server);

  return {
    url: base,
    requests,
    abandoned,
    offsite: { url: offsiteUrl, requests: offsiteRequests },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of [server, offsite]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
