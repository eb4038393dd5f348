import type { BrandProfileResource, BrandProfileSummary, SourceResource, SourceType, StoredVoiceProfile } from "../../../../shared/schemas/brand";
import { html, type Html } from "../html";
import type { Session } from "../session";
import { badge, csrfField, orgUrl, page, when, type Notice, type OrgRef } from "./layout";

/** Brand knowledge: the organization's brand profiles; a profile's sources with their ingest status, adding sources, and what it learned (voice, facts). */

interface Ctx {
  session: Session;
  org: OrgRef;
  notice?: Notice;
}

const VOICE_TONE: Record<string, string> = { none: "test", ready: "ok", failed: "off" };
const SOURCE_TONE: Record<string, string> = { pending: "wait", processing: "wait", ready: "ok", failed: "off" };

export function brandProfilesPage(c: Ctx, profiles: BrandProfileSummary[], values: Record<string, string> = {}, next?: string): Html {
  return page(
    { title: "Brand knowledge", session: c.session, org: c.org, section: "brand", notice: c.notice },
    html`<section class="card">
  <h2>Brand profiles</h2>
  <p class="muted">What the articles of a brand are grounded in: its website, pages and texts, the voice learned from them, and the facts they state.</p>
  ${profiles.length
    ? html`<table id="profiles"><thead><tr><th>Name</th><th>Website</th><th class="num">Sources</th><th class="num">Passages</th><th>Voice</th><th>Created</th></tr></thead>
    <tbody>${profiles.map(
      (p) => html`<tr data-profile-id="${p.id}"><td><a class="profile-link" href="${orgUrl(c.org.id, `/brand-profiles/${p.id}`)}">${p.name}</a></td>
        <td class="endpoint-url">${p.website_url ?? html`<span class="muted">—</span>`}</td><td class="num">${p.sources}</td><td class="num">${p.chunks}</td>
        <td>${badge(p.voice_status, VOICE_TONE[p.voice_status] ?? "wait")}</td><td>${when(p.created_at)}</td></tr>`,
    )}</tbody></table>`
    : html`<p class="empty">No brand profiles yet.</p>`}
  ${next ? html`<p><a href="${orgUrl(c.org.id, `/brand-profiles?starting_after=${next}`)}">Older profiles →</a></p>` : html``}
</section>
<section class="card">
  <h2>Create a brand profile</h2>
  <form method="post" action="${orgUrl(c.org.id, "/brand-profiles")}" class="stack" id="new-profile">
    ${csrfField(c.session)}
    <div class="grid-form">
      <label>Name<input name="name" required maxlength="200" value="${values.name ?? ""}"></label>
      <label><span>Website <span class="muted">(optional: crawled as its first source)</span></span><input name="website_url" type="url" value="${values.website_url ?? ""}" placeholder="https://example.com"></label>
    </div>
    <label><span>Description <span class="muted">(optional)</span></span><textarea name="description" rows="2" maxlength="2000">${values.description ?? ""}</textarea></label>
    <div class="row"><button type="submit">Create profile</button></div>
  </form>
</section>`,
  );
}

/** The fields each source type takes (the contract's rules: `url` for fetched sources, `content` for texts). */
const SOURCE_FORMS: Record<SourceType, { label: string; hint: string; url: "required" | "optional" | "none"; content: boolean }> = {
  website: { label: "Website", hint: "Crawled: the pages of the site under this address.", url: "required", content: false },
  url: { label: "Web page", hint: "Fetched: this one page.", url: "required", content: false },
  text: { label: "Text", hint: "Pasted: a guide, a product sheet, notes. The address is where it came from (cited, never fetched).", url: "optional", content: true },
  writing_sample: { label: "Writing sample", hint: "Pasted: writing in the brand's voice; the voice profile learns from these.", url: "none", content: true },
};

export function brandProfilePage(c: Ctx, p: BrandProfileResource, sources: SourceResource[], typed?: { type: string; values: Record<string, string> }): Html {
  const voice = p.voice_profile as VoiceView | null;
  return page(
    { title: p.name, session: c.session, org: c.org, section: "brand", notice: c.notice, scripts: ["desk.js"] },
    html`<section class="card">
  <div class="row spread"><h2 class="profile-name">${p.name}</h2><a class="button" href="${orgUrl(c.org.id, `/articles/new?brand_profile_id=${p.id}`)}">New article from this profile</a></div>
  <dl class="facts" id="profile-facts"><dt>Website</dt><dd class="endpoint-url">${p.website_url ?? "—"}</dd><dt>Description</dt><dd>${p.description ?? "—"}</dd>
    <dt>Sources</dt><dd>${p.sources}</dd><dt>Passages</dt><dd>${p.chunks}</dd><dt>Created</dt><dd>${when(p.created_at)}</dd></dl>
</section>
<section class="card">
  <h2>Sources</h2>
  ${sources.length
    ? html`<table id="sources"><thead><tr><th>Title</th><th>Type</th><th>Status</th><th class="num">Pages</th><th class="num">Passages</th><th>Added</th><th>Ingested</th></tr></thead>
    <tbody>${sources.map(
      (s) => html`<tr data-source-id="${s.id}"${s.status === "pending" || s.status === "processing" ? html` data-follow="${orgUrl(c.org.id, `/jobs/${s.ingest_job_id}/events`)}"` : html``}><td><span class="source-title">${s.title}</span>${s.url ? html`<div class="muted small endpoint-url">${s.url}</div>` : html``}</td>
        <td>${SOURCE_FORMS[s.type]?.label ?? s.type}</td>
        <td class="source-status">${badge(s.status, SOURCE_TONE[s.status] ?? "wait")}${s.error ? html`<div class="muted small source-error">${s.error}</div>` : html``}</td>
        <td class="num">${s.pages}</td><td class="num">${s.chunks}</td><td>${when(s.created_at)}</td><td>${when(s.ingested_at)}</td></tr>`,
    )}</tbody></table>`
    : html`<p class="empty">No sources yet.</p>`}
  <p class="muted small">Each source is ingested by a job; its status here follows the job live.</p>
</section>
<section class="card">
  <h2>Add a source</h2>
  <div class="source-forms">${(Object.keys(SOURCE_FORMS) as SourceType[]).map((type) => sourceForm(c, p.id, type, typed?.type === type ? typed.values : {}))}</div>
</section>
<div class="desk even">
  <section class="card" id="voice">
    <h2>Voice ${badge(p.voice_status, VOICE_TONE[p.voice_status] ?? "wait")}</h2>
    ${p.voice_error ? html`<p class="notice notice-error">${p.voice_error}</p>` : html``}
    ${voice ? voiceFacts(voice) : html`<p class="muted">Learned once sources are ingested (writing samples first, else the site's own texts).</p>`}
  </section>
  <section class="card" id="fact-sheet">
    <h2>Fact sheet</h2>
    ${p.fact_sheet?.facts.length
      ? html`<ul class="facts-list">${p.fact_sheet.facts.map((f) => html`<li><span class="badge badge-test">${f.kind}</span> ${f.fact}</li>`)}</ul>
        <p class="muted small">Updated ${when(p.fact_sheet.updated_at)}</p>`
      : html`<p class="muted">No facts extracted yet.</p>`}
  </section>
</div>`,
  );
}

function sourceForm(c: Ctx, profileId: string, type: SourceType, v: Record<string, string>): Html {
  const f = SOURCE_FORMS[type];
  return html`<form method="post" action="${orgUrl(c.org.id, `/brand-profiles/${profileId}/sources`)}" class="stack source-form" data-type="${type}">
  ${csrfField(c.session)}<input type="hidden" name="type" value="${type}">
  <h3>${f.label}</h3><p class="muted small">${f.hint}</p>
  <label><span>Title <span class="muted">(optional)</span></span><input name="title" maxlength="200" value="${v.title ?? ""}"></label>
  ${f.url !== "none" ? html`<label><span>Address${f.url === "optional" ? html` <span class="muted">(optional)</span>` : html``}</span><input name="url" type="url"${f.url === "required" ? html` required` : html``} value="${v.url ?? ""}" placeholder="https://"></label>` : html``}
  ${f.content ? html`<label>Text<textarea name="content" rows="6" required>${v.content ?? ""}</textarea></label>` : html``}
  <button type="submit">Add ${f.label.toLowerCase()}</button>
</form>`;
}

type VoiceView = StoredVoiceProfile;

const PERSON: Record<string, string> = { first_plural: "we", first_singular: "I", second: "you", third: "they (third person)" };
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
const list = (xs: string[] | undefined) => (xs?.length ? xs.join(", ") : "—");

function voiceFacts(v: VoiceView): Html {
  return html`<dl class="facts">
  <dt>Tone</dt><dd>${list(v.tone)}</dd>
  <dt>Speaks as</dt><dd>${v.person ? PERSON[v.person] ?? v.person : "—"}</dd>
  <dt>Reading ease</dt><dd>${v.readingLevel?.fleschReadingEase ?? "—"} (grade ${v.readingLevel?.grade ?? "—"})</dd>
  <dt>Sentences</dt><dd>${v.sentenceLength?.mean ?? "—"} words on average (90% under ${v.sentenceLength?.p90 ?? "—"})</dd>
  <dt>Vocabulary</dt><dd>${list(v.vocabulary)}</dd>
  <dt>Prefers</dt><dd>${list(v.preferPhrases)}</dd>
  <dt>Avoids</dt><dd>${list(v.avoidPhrases)}</dd>
  <dt>Learned from</dt><dd>${count(v.basedOn?.samples ?? 0, "writing sample")}, ${count(v.basedOn?.siteDocuments ?? 0, "site document")}</dd>
</dl>`;
}
