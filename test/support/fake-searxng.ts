import http from "node:http";
import { closeServers, listen, searchSite, startSearchSite } from "./search-site";

/**
 * A local SearxNG instance (its JSON API, `GET /search?q=…&format=json&language=…`) and the local site its
 * results point at: guides about route planning and scheduling for field-service teams, written for the
 * article pipeline's tests. Result shapes follow SearxNG's `format=json` answer: `{query,
 * number_of_results, results: [{url, title, content, engine, engines, positions, score, category}],
 * answers, corrections, infoboxes, suggestions, unresponsive_engines}`.
 */

export interface CorpusPage {
  path: string;
  title: string;
  sections: { heading: string; paragraphs: string[] }[];
}

export const ROUTE_PLANNING_PAGES: CorpusPage[] = [
  {
    path: "/guides/route-planning-basics",
    title: "Route planning basics for field service teams",
    sections: [
      {
        heading: "Why route planning matters",
        paragraphs: [
          "Route planning decides how much of a technician's day is spent working and how much is spent driving. A 2023 survey of 410 service companies found that technicians spend 38% of their working day behind the wheel. Cutting that share is the fastest way to add billable jobs without hiring.",
          "Good route planning also makes arrival times predictable for customers. Dispatchers who plan routes the evening before can promise narrower arrival windows the next morning. Customers who receive a narrow window are far less likely to cancel at the door.",
        ],
      },
      {
        heading: "Clustering jobs by area",
        paragraphs: [
          "The simplest improvement is to group each technician's jobs by neighbourhood. Teams that cluster jobs within a 15-minute drive radius typically save between 40 and 70 minutes of driving per technician per day. Clustering works best when the office books new jobs into days when a technician is already nearby.",
          "Route planning software can re-sequence the remaining stops when a job runs long. Re-sequencing keeps the technician moving toward the next closest customer instead of following the original order. Dispatchers should still review the new order before customers are notified.",
        ],
      },
      {
        heading: "Planning for traffic and parts",
        paragraphs: [
          "Travel times change during the day, so a route that works at 8:00 can fail at 16:30. Planning tools that use historical traffic data estimate afternoon travel times far better than straight-line distance. Technicians should also start the day with the parts each job is likely to need.",
          "A missing part turns one visit into two, which doubles the driving for that job. Stocking vans from the job list the evening before reduces repeat visits. Teams that track first-time fix rates can see quickly whether van stock is keeping up.",
        ],
      },
    ],
  },
  {
    path: "/guides/arrival-windows",
    title: "Arrival windows and customer communication",
    sections: [
      {
        heading: "Choosing the length of arrival windows",
        paragraphs: [
          "Most residential service companies offer arrival windows of two to four hours. Shorter windows please customers but leave dispatchers less room when a job overruns. A two-hour window is a common compromise for routine maintenance visits.",
          "Emergency repairs rarely fit a fixed window, and customers usually accept that. Dispatchers should say clearly when an emergency visit is an estimate rather than a promise. Honest estimates protect the company's reputation when plans change.",
        ],
      },
      {
        heading: "Keeping customers informed",
        paragraphs: [
          "Automatic text messages that announce the technician's departure reduce no-access visits. Messages that include the technician's name and photo make customers more comfortable opening the door. A short message sent when the technician is 30 minutes away gives customers time to be home.",
          "Customers who are told about a delay before the window ends rarely complain. Silence is what turns a late arrival into a bad review. Many teams send delay notices automatically once a technician falls more than 20 minutes behind schedule.",
        ],
      },
    ],
  },
  {
    path: "/guides/technician-skills",
    title: "Matching jobs to technician skills",
    sections: [
      {
        heading: "Recording skills and certifications",
        paragraphs: [
          "Dispatching works better when every technician's skills and certifications are recorded in one place. Gas work, commercial refrigeration and backflow testing often require certifications that expire. A skills list that includes expiry dates prevents a job from being assigned to someone who is no longer certified.",
          "Skill records also help with training decisions. Managers can see which skills only one technician holds and plan cross-training before that person goes on holiday. Spreading critical skills across the team makes the schedule far more resilient.",
        ],
      },
      {
        heading: "Balancing skills and travel",
        paragraphs: [
          "The nearest technician is not always the right technician. Sending a junior technician to a complex commercial job often ends in a second visit by a senior colleague. Dispatchers should weigh the cost of a return visit against a longer drive for the right person.",
          "Pairing a junior technician with a senior one on complex jobs builds skills over time. Ride-alongs are easier to schedule on days with fewer emergency calls. Teams that plan them a week ahead can protect them from last-minute changes.",
        ],
      },
    ],
  },
  {
    path: "/guides/emergency-calls",
    title: "Handling emergency calls without wrecking the day",
    sections: [
      {
        heading: "Reserving capacity for emergencies",
        paragraphs: [
          "Emergency calls are predictable in aggregate even though each one is a surprise. Heating companies see emergency demand rise sharply on the first cold mornings of the season. Keeping one open slot per technician on those days absorbs most urgent calls without cancelling planned work.",
          "Companies that never reserve capacity end up moving planned jobs to fit emergencies. Each moved job is a customer who took time off work for nothing. Tracking how many emergency calls arrive per weekday shows how much capacity to hold back.",
        ],
      },
      {
        heading: "Triage on the phone",
        paragraphs: [
          "Not every urgent-sounding call needs a technician the same day. A short set of triage questions separates true emergencies from problems that can wait until the next morning. Gas smells, water leaks and loss of heat in freezing weather should always be treated as emergencies.",
          "Some problems can be solved on the phone by walking the customer through a reset. Solving a call remotely frees a slot for a customer who really needs a visit. Office staff need a written script so that triage is consistent across shifts.",
        ],
      },
    ],
  },
  {
    path: "/guides/measuring-performance",
    title: "Measuring field service performance",
    sections: [
      {
        heading: "The metrics that matter",
        paragraphs: [
          "First-time fix rate is the share of jobs completed on the first visit. Industry benchmarks put a good first-time fix rate at around 80%, while struggling teams sit near 60%. Every point of improvement removes return trips from the schedule.",
          "Utilisation measures how much of a technician's paid time is spent on jobs. Drive time, waiting for parts and unassigned gaps all lower utilisation. Most well-run teams keep utilisation between 65% and 75% so that they still have room for emergencies.",
        ],
      },
      {
        heading: "Reviewing the numbers",
        paragraphs: [
          "Weekly reviews of a handful of metrics work better than monthly reviews of many. Dispatchers and technicians should see the same numbers, so that the discussion is about causes rather than data. A simple dashboard with first-time fix rate, utilisation and on-time arrivals covers most needs.",
          "On-time arrival rate shows whether arrival windows are realistic. A team that arrives late on more than one visit in ten should widen its windows or reduce the jobs booked per day. Customers value reliability more than speed.",
        ],
      },
    ],
  },
  {
    path: "/guides/mobile-tools",
    title: "Mobile tools for technicians",
    sections: [
      {
        heading: "What technicians need on the road",
        paragraphs: [
          "Technicians need the day's jobs, customer history and directions on one screen. A mobile app that works without a signal matters in basements, plant rooms and rural areas. Apps that synchronise when the connection returns prevent lost notes and photos.",
          "Digital checklists make maintenance visits consistent from one technician to the next. Photos taken before and after the work protect the company when a customer disputes what was done. Capturing the customer's signature in the app closes the job without paperwork.",
        ],
      },
      {
        heading: "Closing jobs in the field",
        paragraphs: [
          "Creating the invoice at the customer's door shortens the time until the company is paid. Companies that invoice on site are often paid days sooner than those that invoice from the office. Card payments taken in the app remove the need to chase cheques.",
          "Parts used on a job should be recorded in the app as the work is done. Recording parts immediately keeps van stock accurate and feeds the next day's restocking list. Accurate stock records in turn raise the first-time fix rate.",
        ],
      },
    ],
  },
  {
    path: "/guides/maintenance-contracts",
    title: "Scheduling maintenance contracts",
    sections: [
      {
        heading: "Spreading contract visits over the year",
        paragraphs: [
          "Maintenance contracts give a service company predictable work between the busy seasons. Most heating contracts promise one inspection a year, and customers expect it before the first cold spell. Booking every inspection in September creates a peak that the team cannot absorb.",
          "Spreading inspections from April to August keeps technicians busy in the quiet months. Customers accept an early visit when the office explains that it avoids the autumn rush. Contract renewals are also easier to win when the visit happened on time.",
        ],
      },
      {
        heading: "Grouping contract visits",
        paragraphs: [
          "Contract visits are easy to cluster because their dates are flexible within a month. Dispatchers can fill the gaps around reactive jobs with nearby contract visits. A technician who services three boilers on one street wastes almost no time driving.",
          "Contract customers should receive a reminder a week before the planned visit. The reminder lets them move the appointment before the technician sets off. Fewer moved appointments mean fewer wasted trips.",
        ],
      },
    ],
  },
  {
    path: "/guides/dispatch-board",
    title: "Designing a dispatch board that works",
    sections: [
      {
        heading: "One screen for the whole day",
        paragraphs: [
          "A dispatch board shows every technician as a row and every job as a block of time. Dispatchers read the board faster when unassigned jobs sit in a separate column on the left. Colour coding by job type helps a dispatcher spot an emergency at a glance.",
          "The board should show travel time between jobs as well as the jobs themselves. Gaps that look free are often filled with driving. Boards that hide travel time lead dispatchers to overbook the afternoon.",
        ],
      },
      {
        heading: "Changing plans during the day",
        paragraphs: [
          "Dragging a job to another technician should update both routes immediately. Dispatchers need to see the knock-on effect before they confirm a change. A change that makes three later customers late is rarely worth it.",
          "Technicians should receive changes on their phones within a minute. Phone calls to announce every change interrupt work and are easily missed. Written changes also leave a record when a customer later asks what happened.",
        ],
      },
    ],
  },
  {
    path: "/guides/technician-communication",
    title: "Communicating with technicians in the field",
    sections: [
      {
        heading: "Briefing before the visit",
        paragraphs: [
          "Technicians work faster when they know the job history before they ring the doorbell. Notes from the last visit, photos of the installation and the customer's access instructions save minutes at every stop. Missing access instructions are a common cause of failed visits.",
          "Office staff should write job notes for the technician, not for themselves. Short notes that say what the customer reported work better than long call transcripts. Technicians read notes on a small screen, often standing outside.",
        ],
      },
      {
        heading: "Reporting back from the field",
        paragraphs: [
          "Technicians should report the outcome of each job before they drive to the next one. A job marked complete on site lets the office invoice the same day. Jobs that stay open until the evening hide problems until it is too late to fix them.",
          "A short structured report is easier to complete than a free-text form. Checkboxes for the work done and a field for follow-up needs cover most jobs. The office can then book any follow-up visit while the customer is still on the phone.",
        ],
      },
    ],
  },
  {
    path: "/guides/van-stock",
    title: "Managing van stock",
    sections: [
      {
        heading: "What to carry",
        paragraphs: [
          "A well-stocked van carries the parts that fix most common faults of the equipment the team services. Stock lists built from the last year's completed jobs show which parts are used most. Parts used fewer than twice a year are usually better kept at the depot.",
          "Every van in a team should carry the same core stock. Identical vans let the dispatcher send any technician to a common fault. Specialist parts can stay with the technicians who are certified to fit them.",
        ],
      },
      {
        heading: "Restocking routines",
        paragraphs: [
          "Vans are easiest to restock at the end of the day from a list the system prepares. Technicians who restock their own vans in the morning start their first job late. Some teams have the depot prepare a crate for each van overnight.",
          "A monthly count of each van catches parts that were used but never recorded. Unrecorded parts distort the stock list and end in a missing part on a later job. Counting takes less than an hour per van when the shelves are labelled.",
        ],
      },
    ],
  },
  {
    path: "/guides/seasonal-demand",
    title: "Planning for seasonal demand",
    sections: [
      {
        heading: "Knowing the peaks",
        paragraphs: [
          "Heating and cooling companies see demand follow the weather more than the calendar. The first hot week of summer brings a wave of air-conditioning calls within two days. Call volumes from previous years show how large each wave usually is.",
          "Weather forecasts give about five days of warning before a peak. Dispatchers can use that warning to move flexible work out of the peak days. Contract visits and quotes are the easiest jobs to move.",
        ],
      },
      {
        heading: "Staffing the busy weeks",
        paragraphs: [
          "Overtime is the usual answer to a peak, but tired technicians make more mistakes. Rotating weekend shifts spreads the extra hours across the team. Some companies agree in advance with subcontractors who can take simple jobs during the busiest weeks.",
          "Office staffing matters as much as technicians during a peak. Unanswered calls during a heatwave go straight to a competitor. Extra phone cover for the first days of a peak often pays for itself.",
        ],
      },
    ],
  },
  {
    path: "/guides/onboarding-dispatchers",
    title: "Onboarding new dispatchers",
    sections: [
      {
        heading: "The first weeks",
        paragraphs: [
          "New dispatchers learn fastest by shadowing an experienced colleague for their first week. Listening to how an experienced dispatcher handles a difficult call teaches more than any manual. Shadowing also shows how the team's unwritten rules work in practice.",
          "In the second week a new dispatcher can plan one small area under supervision. A limited area keeps mistakes small while the new dispatcher builds confidence. Most new dispatchers can plan a full day on their own after about a month.",
        ],
      },
      {
        heading: "Learning the territory",
        paragraphs: [
          "Dispatchers who know the territory plan better routes than any software alone. Knowing which bridges jam at rush hour or which estates have no parking saves technicians real time. Riding along with a technician for a day is the quickest way to learn the area.",
          "A shared map with notes about difficult addresses helps new dispatchers learn faster. Technicians can add notes from the field when they find a better way in. Over time the map becomes one of the team's most valuable tools.",
        ],
      },
    ],
  },
];

/** A page as markdown (headings and paragraphs): the same text as a knowledge-base `text` source. */
export function pageAsMarkdown(page: CorpusPage): string {
  return [`# ${page.title}`, ...page.sections.flatMap((s) => [`## ${s.heading}`, ...s.paragraphs])].join("\n\n");
}

export { BROKEN_PATHS, PRIVATE_RESULT_URL } from "./search-site";

export interface SearchRequest {
  q: string;
  format: string | null;
  language: string | null;
}

export interface FakeSearxng {
  /** Base address of the SearxNG API (SEARXNG_URL). */
  url: string;
  /** Base address of the site the results point at. */
  siteUrl: string;
  searches: SearchRequest[];
  pageRequests: string[];
  /** Answer the next searches with this HTTP status instead of results. */
  failNext(count: number, status?: number): void;
  close(): Promise<void>;
}

/**
 * Starts the site and the search API. Every query returns the site's pages that share words with it (best
 * first), with a failing page, a PDF and a private address right after the first hit, as real result lists mix them in.
 */
export async function startFakeSearxng(pages: CorpusPage[] = ROUTE_PLANNING_PAGES): Promise<FakeSearxng> {
  const site = await startSearchSite(pages);
  const siteUrl = site.url;

  const searches: SearchRequest[] = [];
  let failures = 0;
  let failureStatus = 500;
  const api = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== "/search") return void res.writeHead(404).end();
    const request = { q: url.searchParams.get("q") ?? "", format: url.searchParams.get("format"), language: url.searchParams.get("language") };
    searches.push(request);
    if (failures > 0) {
      failures--;
      return void res.writeHead(failureStatus, { "content-type": "text/html" }).end("<h1>Too many requests</h1>");
    }
    // SearxNG answers 403 when the JSON format is not enabled in settings.yml.
    if (request.format !== "json") return void res.writeHead(403, { "content-type": "text/html" }).end("<h1>Forbidden</h1>");
    // Real result lists mix in pages that cannot be read: here right after the best hit.
    const results = searchSite(pages, siteUrl, request.q).map(({ url, title, content, score, junk }, i) =>
      junk
        ? { url, title, content, engine: "brave", engines: ["brave"], positions: [i + 1], score, category: "general" }
        : { url, title, content, engine: "duckduckgo", engines: ["duckduckgo", "brave"], positions: [i + 1], score, category: "general", parsed_url: ["http", new URL(siteUrl).host, new URL(url).pathname, "", "", ""] },
    );
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({ query: request.q, number_of_results: results.length, results, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] }),
    );
  });
  const url = await listen(api);

  return {
    url,
    siteUrl,
    searches,
    pageRequests: site.pageRequests,
    failNext(count, status = 429) {
      failures = count;
      failureStatus = status;
    },
    close: () => closeServers(site.server, api),
  };
}
