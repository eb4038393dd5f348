/**
 * A small knowledge base about a fictional company, Lumen Ledger (bookkeeping software for small businesses),
 * for retrieval-quality tests: nine documents as a brand's site and uploads would provide them (HTML pages
 * with navigation, cookie banners and footers; markdown and plain text), and questions a writer might ask,
 * each labelled with the document and top-level section that answers it.
 */

export interface CorpusDocument {
  id: string;
  url: string;
  contentType: "text/html" | "text/markdown";
  body: string;
}

export interface CorpusQuestion {
  question: string;
  documentId: string;
  /** The top-level heading of the section whose chunk answers the question. */
  section: string;
}

/** Wraps article HTML in the boilerplate a real site has: header navigation, a cookie banner, a footer. */
function page(title: string, article: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title} | Lumen Ledger</title><link rel="stylesheet" href="/site.css"></head>
<body>
<header class="site-header">
  <a class="logo" href="/">Lumen Ledger</a>
  <nav class="main-nav"><ul>
    <li><a href="/products">Products</a></li><li><a href="/pricing">Pricing</a></li><li><a href="/integrations">Integrations</a></li>
    <li><a href="/security">Security</a></li><li><a href="/about">About</a></li><li><a href="/careers">Careers</a></li>
    <li><a href="/login">Log in</a></li><li><a href="/signup">Start free trial</a></li>
  </ul></nav>
</header>
<div id="cookie-banner" class="cookie-banner" role="dialog">
  <p>We use cookies to personalise content and analyse our traffic. Choose "Accept all" to consent or manage your preferences.</p>
  <button>Accept all</button><button>Manage preferences</button>
</div>
<main>
<article>
<h1>${title}</h1>
${article}
</article>
</main>
<footer class="site-footer">
  <div class="footer-links"><a href="/privacy">Privacy policy</a> · <a href="/terms">Terms of service</a> · <a href="/cookies">Cookie settings</a> · <a href="/status">System status</a></div>
  <p>© 2025 Lumen Ledger Ltd. Registered in Ireland, company number 582114. All rights reserved.</p>
</footer>
<script>window.analytics && window.analytics.page();</script>
</body>
</html>`;
}

const products = page(
  "Products",
  `<p>Lumen Ledger is bookkeeping software for small businesses and the accountants who work with them. Three products share one ledger, so every invoice, payment and bank transaction lands in the same set of books without copying anything between tools.</p>
<h2>Ledger Core</h2>
<p>Ledger Core is the automated bookkeeping engine. It imports transactions from your bank feeds every night, suggests a category for each one based on how you and businesses like yours have booked similar transactions, and learns from every correction you make. After the first three months, customers typically see more than 90% of transactions categorised automatically.</p>
<p>Core handles double-entry accounting behind the scenes, keeps a full audit trail of who changed what, and produces a profit and loss statement, balance sheet and VAT or sales tax summary at any moment. Bank reconciliation runs continuously instead of once a month, so discrepancies surface while they are still easy to explain.</p>
<h2>Ledger Pay</h2>
<p>Ledger Pay handles invoicing and getting paid. You can create branded invoices and quotes, send them by email with a payment link, and let your customers pay by card, bank transfer or direct debit. Card payments cost 1.4% + €0.25 for European cards and 2.9% + €0.25 for international cards; bank transfers are free.</p>
<p>Pay sends polite automatic reminders before and after the due date, marks invoices as paid the moment the money arrives and matches the payment to the invoice in your books. Recurring invoices and payment plans are available on the Growth plan and above.</p>
<h2>Ledger Insights</h2>
<p>Ledger Insights turns your books into a cash-flow forecast. It projects your bank balance 13 weeks ahead from unpaid invoices, upcoming bills, payroll and recurring expenses, and flags the weeks where you might run short. You can model scenarios, such as hiring a new employee or losing a large customer, and compare them side by side.</p>
<p>Insights also tracks margins by product or client and sends a plain-language monthly summary that explains what changed and why.</p>
<h2>Mobile app</h2>
<p>The Lumen Ledger app for iOS and Android lets you snap photos of receipts, and our optical character recognition reads the supplier, date, amount and tax so the expense is matched to the card transaction automatically. You can also approve bills, send invoices and check your cash position from your phone. The app works offline and syncs when you are back online.</p>`,
);

const pricing = page(
  "Pricing",
  `<p>Lumen Ledger has four plans, and every plan starts with a 30-day free trial without a credit card. All plans include unlimited bank feeds, receipt capture, the mobile app and email support. Prices are per business entity and exclude VAT.</p>
<h2>Starter</h2>
<p>The Starter plan costs €19 per month and is made for freelancers and sole traders. It includes automated bookkeeping, bank reconciliation, up to 20 invoices per month and one user. Starter does not include Ledger Insights or multi-currency.</p>
<h2>Growth</h2>
<p>The Growth plan costs €49 per month and suits small teams. It includes everything in Starter plus unlimited invoices, recurring invoices and payment plans, multi-currency accounting in 40 currencies, and up to five users with roles and permissions. Most businesses with two to fifteen employees choose Growth.</p>
<h2>Scale</h2>
<p>The Scale plan costs €129 per month. It adds Ledger Insights cash-flow forecasting, consolidated reporting across up to three entities, approval workflows for bills, unlimited users and phone support. Additional entities cost €25 per month each.</p>
<h2>Enterprise</h2>
<p>Enterprise pricing is quoted individually for organisations with more than 50 users or more than ten entities. It includes SAML single sign-on, a dedicated customer success manager, a 99.95% uptime commitment in the contract, custom data retention and invoicing by purchase order.</p>
<h2>Billing and refunds</h2>
<p>Monthly plans are billed in advance and can be cancelled at any time; cancellation takes effect at the end of the current month and no partial refunds are issued for unused days. Annual plans can be refunded in full within 30 days of purchase. After that, an annual plan can be cancelled at renewal. Upgrades take effect immediately and are prorated to the day; downgrades apply from the next billing period.</p>
<h2>Discounts</h2>
<p>Paying annually saves 15% compared with monthly billing. Registered charities and nonprofit organisations get 50% off any plan, and schools and universities can use Lumen Ledger for teaching free of charge. Accounting firms in our partner programme receive a 20% wholesale discount on every client subscription they manage.</p>`,
);

const security = page(
  "Security and compliance",
  `<p>Your books hold some of the most sensitive information a business has. This page explains how Lumen Ledger protects it, which audits we pass and how to reach our security team.</p>
<h2>Certifications and audits</h2>
<p>Lumen Ledger holds a SOC 2 Type II report covering security, availability and confidentiality, renewed every year by an independent auditor. We are certified to ISO/IEC 27001:2022 and comply with the GDPR as a data processor. Customers on the Scale and Enterprise plans can request the latest SOC 2 report and penetration test summary under a non-disclosure agreement.</p>
<h2>Encryption</h2>
<p>All data is encrypted in transit with TLS 1.2 or higher and at rest with AES-256. Encryption keys are managed in a hardware security module and rotated every 90 days. Bank credentials are never stored on our servers: bank connections use tokenised access granted through your bank or our open-banking provider.</p>
<h2>Access control</h2>
<p>Every user can protect their account with two-factor authentication using an authenticator app or a hardware security key, and account owners can make it mandatory for the whole team. Roles and permissions limit who can see payroll, approve bills or change bank details. Enterprise customers can sign in with SAML single sign-on through Okta, Microsoft Entra ID or Google Workspace. Lumen Ledger employees cannot open customer books unless a customer grants temporary support access, and every such session is logged.</p>
<h2>Data residency and backups</h2>
<p>Customer data is stored in the European Union by default, in AWS data centres in Frankfurt and Dublin. Customers in Canada and the United States can choose to host their data in North America instead. Databases are backed up every hour, backups are kept for 35 days and are encrypted, and we test a full restore every quarter.</p>
<h2>Vulnerability disclosure</h2>
<p>We welcome reports from security researchers. Please send any suspected vulnerability to security@lumenledger.example; we acknowledge every report within two business days. Our bug bounty programme on HackerOne pays rewards of up to €10,000 for critical findings. We ask researchers not to access other customers' data and to give us 90 days to fix an issue before public disclosure.</p>`,
);

const about = page(
  "About Lumen Ledger",
  `<p>We started Lumen Ledger because running a small business should not mean spending every Sunday evening with a shoebox of receipts. Today our software keeps the books of tens of thousands of companies.</p>
<h2>Our story</h2>
<p>Lumen Ledger was founded in 2016 in Lisbon by Ana Ribeiro, a chartered accountant, and Tom Okafor, a software engineer who had built payment systems at a large bank. Ana had watched her clients lose days every month to data entry, and the two of them built the first version of the categorisation engine at a kitchen table in the Alfama district. The first paying customer was a bakery that still uses Lumen Ledger today.</p>
<h2>Funding and growth</h2>
<p>We raised a €1.2 million seed round in 2017 and a €9 million Series A led by Northzone in 2019. In 2022 we closed a €48 million Series B led by Atomico, which funded our expansion into Canada and the launch of Ledger Insights. The company has been profitable since the third quarter of 2024.</p>
<h2>Customers today</h2>
<p>More than 40,000 businesses in 31 countries use Lumen Ledger, from one-person design studios to retailers with a dozen shops. Around 2,300 accounting firms manage their clients' books on the platform. Our customers send over 1.5 million invoices a year through Ledger Pay.</p>
<h2>Offices</h2>
<p>Our headquarters are in Lisbon, with offices in Dublin and Toronto. About 60% of our 310 employees work remotely from 24 countries, and each office hosts the whole company for a week-long gathering once a year.</p>
<h2>Leadership</h2>
<p>Ana Ribeiro is chief executive officer and Tom Okafor is chief technology officer. Priya Nair, previously at Xero, joined as chief operating officer in 2021, and Lars Henriksen leads finance as chief financial officer.</p>`,
);

const support = `# Customer support

Our support team is made up of product specialists and qualified accountants. This guide explains how to reach us, how quickly we answer, and where to find help on your own.

## Contact channels

Live chat is available inside the app from Monday to Friday, 7:00 to 22:00 Central European Time, which is 24 hours a day on weekdays for most of Europe's business hours and North America's mornings. You can email support@lumenledger.example at any time. Phone support is included in the Scale and Enterprise plans; the number is shown in the app under Help.

Every conversation is handled by a person. We do not use automated bots to close tickets.

## Response times

We answer live chats within 5 minutes on average and emails within 4 business hours. For urgent problems, such as a failed payroll export or invoices that cannot be sent, Scale customers get a first response within one hour and Enterprise customers within 30 minutes, around the clock. Our customer satisfaction score was 96% in 2024.

## Help center and Lumen Academy

The help center has more than 400 articles and short videos covering every feature, written by the support team and updated with every release. Lumen Academy offers free self-paced courses on bookkeeping basics, VAT returns and reading a cash-flow forecast; accountants earn continuing professional development credits for completing them.

## Onboarding

Every new Growth, Scale and Enterprise customer can book a free 45-minute onboarding call with a specialist who will connect your bank accounts, import your existing data and set up categories with you. Enterprise customers get a structured onboarding project with a named implementation manager.

## Status page and incidents

Current availability and any ongoing incidents are published at status.lumenledger.example, where you can subscribe to updates by email or SMS. After any major incident we publish a post-mortem within five business days explaining what happened and what we changed.
`;

const integrations = page(
  "Integrations",
  `<p>Lumen Ledger connects to the tools you already use, so sales, payroll and bank data flow into your books without manual imports. All integrations are included in every plan unless stated otherwise.</p>
<h2>Bank feeds</h2>
<p>Lumen Ledger connects to more than 12,000 banks and card providers in Europe and North America through open-banking connections and our partners Plaid and TrueLayer. Transactions are imported every night, and you can refresh a feed on demand. If your bank is not supported, you can upload statements as CSV, OFX or CAMT.053 files.</p>
<h2>E-commerce and point of sale</h2>
<p>Online stores on Shopify, WooCommerce and Amazon Seller Central sync orders, refunds and payout fees automatically, so each payout is split into sales, fees and taxes in your ledger. Point-of-sale systems from Square, SumUp and Lightspeed send a daily summary of takings by payment method.</p>
<h2>Payroll</h2>
<p>Payroll runs from Gusto, Deel and Personio post wages, taxes and pension contributions to the right accounts as a single journal entry after each pay run. Employee-level detail stays in your payroll system, so only people with payroll permission in Lumen Ledger can see salaries.</p>
<h2>CRM and productivity</h2>
<p>HubSpot and Salesforce deals can become invoices in Ledger Pay when they are marked as won, and payment status flows back to the CRM. Through Zapier you can connect more than 6,000 other apps, for example to post a message in Slack when a large invoice is paid.</p>
<h2>Public API and webhooks</h2>
<p>The REST API gives developers access to contacts, invoices, bills, transactions and reports, authenticated with OAuth 2.0. The API allows 600 requests per minute per connected organisation, and webhooks notify your systems when invoices are paid or transactions are categorised. The API is available on the Growth plan and above, and a free sandbox company lets you test without touching real books.</p>`,
);

const careers = page(
  "Careers",
  `<p>We are a team of 310 people building the bookkeeping software we wish our parents had when they ran their shops. If you care about small businesses and well-made software, we would like to meet you.</p>
<h2>Working at Lumen Ledger</h2>
<p>We are remote-first: you can work from anywhere within three hours of Central European Time, or from our offices in Lisbon, Dublin and Toronto. Teams agree on a few hours of overlap each day and write things down so that nobody depends on meetings. Everyone gets a budget to set up a comfortable home office.</p>
<h2>Benefits</h2>
<p>Salaries follow published bands for each level and are reviewed every year. Everyone gets 30 days of paid vacation plus public holidays, 20 weeks of fully paid parental leave for every parent, a learning budget of €1,500 a year and private health insurance in every country where we can offer it. Employees also receive stock options.</p>
<h2>Hiring process</h2>
<p>Our interview process has four steps: a 30-minute call with a recruiter, a conversation with the hiring manager, a practical exercise based on real work that you complete in your own time or in a paired session, and a final meeting with two future teammates. We aim to make a decision within three weeks of your application and we give feedback to every candidate who reaches the practical exercise.</p>
<h2>Open roles</h2>
<p>We are currently hiring a Senior Backend Engineer (Go and PostgreSQL) for the ledger platform team, a Product Designer for Ledger Insights, a Customer Success Manager for accounting firms in Dublin, and a Data Scientist to improve transaction categorisation. We also keep an open application for support specialists with bookkeeping experience.</p>`,
);

const blog = `# How Dough & Co. closed their books in two days instead of ten

Dough & Co. runs three bakeries and a wholesale kitchen in Porto. We talked to their owner, Marta Sousa, about how her team changed its month-end routine and what other small businesses can learn from it.

## Month-end used to take ten days

Before switching, Marta's bookkeeper spent the first ten working days of every month typing card receipts into a spreadsheet, chasing unpaid wholesale invoices and reconciling three bank accounts by hand. Management figures arrived so late that decisions about flour contracts were made on numbers that were already six weeks old.

## What changed

The team connected all three bank accounts and the SumUp card terminals to Lumen Ledger, moved wholesale invoicing to Ledger Pay with automatic reminders, and asked every shop manager to photograph receipts with the mobile app on the day of purchase. The categorisation engine learned the bakery's suppliers within the first month.

## The results

Month-end close now takes two days instead of ten. Unpaid wholesale invoices older than 30 days fell by 70%, because customers receive reminders and can pay by card from the invoice. Marta estimates that the bookkeeper saves about 50 hours a month, time now spent on supplier negotiations.

## Five tips for a faster close

1. Reconcile every week, not every month, so the last days of the month hold only a few transactions.
2. Capture receipts the day you spend the money.
3. Send invoices the day the work is delivered and switch on automatic reminders.
4. Agree a fixed close calendar with your accountant and share it with your team.
5. Review the cash-flow forecast at the same meeting as the profit and loss statement.
`;

const gettingStarted = `# Getting started with Lumen Ledger

This guide takes you from a new account to up-to-date books in an afternoon.

## Create your company

Sign up with your email address, confirm it, and enter your company's legal name, country and financial year end. Lumen Ledger sets up a chart of accounts for your country and business type, which you can adjust later.

## Connect your bank

Open Banking in the menu, search for your bank and sign in with your online banking credentials on your bank's own page. Lumen Ledger imports up to 12 months of past transactions and keeps the feed up to date every night.

## Move from another accounting tool

If you are switching from QuickBooks, Xero, Sage or FreeAgent, the migration assistant imports your contacts, open invoices and bills, opening balances and up to two years of history. For other tools you can upload a trial balance and contact lists as spreadsheets. Most migrations finish within an hour, and the onboarding team can check the result with you.

## Invite your accountant

Your accountant or bookkeeper can join your books for free with an accountant role, which lets them review transactions, post adjusting journals and file VAT returns without seeing your bank login. Accounting firms can manage all their clients from the Lumen Ledger partner dashboard.
`;

export const KNOWLEDGE_CORPUS: CorpusDocument[] = [
  { id: "products", url: "https://lumenledger.example/products", contentType: "text/html", body: products },
  { id: "pricing", url: "https://lumenledger.example/pricing", contentType: "text/html", body: pricing },
  { id: "security", url: "https://lumenledger.example/security", contentType: "text/html", body: security },
  { id: "about", url: "https://lumenledger.example/about", contentType: "text/html", body: about },
  { id: "support", url: "https://lumenledger.example/docs/support.md", contentType: "text/markdown", body: support },
  { id: "integrations", url: "https://lumenledger.example/integrations", contentType: "text/html", body: integrations },
  { id: "careers", url: "https://lumenledger.example/careers", contentType: "text/html", body: careers },
  { id: "blog", url: "https://lumenledger.example/blog/dough-and-co-month-end", contentType: "text/markdown", body: blog },
  { id: "getting-started", url: "https://lumenledger.example/docs/getting-started.md", contentType: "text/markdown", body: gettingStarted },
];

export const KNOWLEDGE_QUESTIONS: CorpusQuestion[] = [
  { question: "How much does the Growth plan cost per month?", documentId: "pricing", section: "Growth" },
  { question: "What is included in the cheapest plan for freelancers?", documentId: "pricing", section: "Starter" },
  { question: "Is there a discount for charities or nonprofits?", documentId: "pricing", section: "Discounts" },
  { question: "Can I get my money back if I cancel an annual subscription?", documentId: "pricing", section: "Billing and refunds" },
  { question: "How much does each additional entity cost on Scale?", documentId: "pricing", section: "Scale" },
  { question: "Does Lumen Ledger have a SOC 2 report or ISO 27001 certification?", documentId: "security", section: "Certifications and audits" },
  { question: "How is customer data encrypted at rest?", documentId: "security", section: "Encryption" },
  { question: "Can we keep our data in the EU, and how often are backups taken?", documentId: "security", section: "Data residency and backups" },
  { question: "How do I report a security vulnerability and is there a bug bounty?", documentId: "security", section: "Vulnerability disclosure" },
  { question: "Can we enforce two-factor authentication for the whole team?", documentId: "security", section: "Access control" },
  { question: "When was the company founded and who are the founders?", documentId: "about", section: "Our story" },
  { question: "How much did Lumen Ledger raise in its Series B and who led it?", documentId: "about", section: "Funding and growth" },
  { question: "How many businesses use Lumen Ledger?", documentId: "about", section: "Customers today" },
  { question: "Where is the headquarters?", documentId: "about", section: "Offices" },
  { question: "What hours is live chat support available?", documentId: "support", section: "Contact channels" },
  { question: "How quickly does support respond to urgent problems?", documentId: "support", section: "Response times" },
  { question: "Where can I check whether there is an ongoing incident or outage?", documentId: "support", section: "Status page and incidents" },
  { question: "Is there a free onboarding call to set up my account?", documentId: "support", section: "Onboarding" },
  { question: "How many banks can I connect for automatic transaction imports?", documentId: "integrations", section: "Bank feeds" },
  { question: "Will my Shopify orders and payout fees sync automatically?", documentId: "integrations", section: "E-commerce and point of sale" },
  { question: "What is the API rate limit?", documentId: "integrations", section: "Public API and webhooks" },
  { question: "Does it work with Gusto or Personio payroll?", documentId: "integrations", section: "Payroll" },
  { question: "Can I work remotely at Lumen Ledger?", documentId: "careers", section: "Working at Lumen Ledger" },
  { question: "How many vacation days and how much parental leave do employees get?", documentId: "careers", section: "Benefits" },
  { question: "What are the steps of the interview process?", documentId: "careers", section: "Hiring process" },
  { question: "Are you hiring a backend engineer?", documentId: "careers", section: "Open roles" },
  { question: "How long did the bakery's month-end close take before switching?", documentId: "blog", section: "Month-end used to take ten days" },
  { question: "How much time does the bakery's bookkeeper save each month?", documentId: "blog", section: "The results" },
  { question: "Tips for closing the books faster at month end", documentId: "blog", section: "Five tips for a faster close" },
  { question: "How much are card payment fees when customers pay an invoice?", documentId: "products", section: "Ledger Pay" },
  { question: "Can the software forecast my cash flow for the coming weeks?", documentId: "products", section: "Ledger Insights" },
  { question: "Can I photograph receipts with my phone?", documentId: "products", section: "Mobile app" },
  { question: "How do I migrate my data from QuickBooks or Xero?", documentId: "getting-started", section: "Move from another accounting tool" },
  { question: "Can my accountant get access to my books?", documentId: "getting-started", section: "Invite your accountant" },
  // Paraphrases sharing few words with their answer: hard for lexical retrieval.
  { question: "Who is the CEO?", documentId: "about", section: "Leadership" },
  { question: "Do you offer SSO?", documentId: "security", section: "Access control" },
  { question: "What does it cost to take credit card payments?", documentId: "products", section: "Ledger Pay" },
  { question: "Is the company making money yet?", documentId: "about", section: "Funding and growth" },
];
