import { call } from "../../../shared/action";
import { BrandKnowledgeActions } from "../../../shared/schemas/brand";
import { cursorFrom, doneNotice, formParams, nextCursor, optionalText, textareaField } from "./forms";
import type { Html } from "./html";
import { redirect, sendHtml } from "./http";
import type { DashboardRoute, OrgCall } from "./router";
import { brandProfilePage, brandProfilesPage } from "./views/brand-profiles";
import { orgUrl, type Notice } from "./views/layout";

/** Brand knowledge in the dashboard: profiles, their sources and ingest status, adding sources, the voice and facts learned, through brand-knowledge's actions. */

const DONE = {
  created: "The brand profile was created.",
  "source-added": "The source was added: it is being ingested.",
};

async function showProfiles(c: OrgCall, notice?: Notice, values: Record<string, string> = {}): Promise<Html> {
  const list = await call(c.caller, BrandKnowledgeActions.listProfiles, { org_id: c.org.id, limit: 50, ...cursorFrom(c.query) });
  return brandProfilesPage({ session: c.session, org: c.org, notice }, list.data, values, nextCursor(list));
}

async function showProfile(c: OrgCall, notice?: Notice, typed?: { type: string; values: Record<string, string> }): Promise<Html> {
  const [profile, sources] = await Promise.all([
    call(c.caller, BrandKnowledgeActions.getProfile, { org_id: c.org.id, id: c.params.profile }),
    call(c.caller, BrandKnowledgeActions.listSources, { org_id: c.org.id, id: c.params.profile }),
  ]);
  return brandProfilePage({ session: c.session, org: c.org, notice }, profile, sources.data, typed);
}

export const BRAND_ROUTES: DashboardRoute[] = [
  {
    method: "GET",
    path: "/orgs/:org/brand-profiles",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, await showProfiles(c, doneNotice(c.query, DONE)));
    },
  },
  {
    method: "POST",
    path: "/orgs/:org/brand-profiles",
    access: "org",
    async handler(c) {
      const created = await call(
        c.caller,
        BrandKnowledgeActions.createProfile,
        formParams(BrandKnowledgeActions.createProfile, {
          org_id: c.org.id,
          name: c.form.get("name") ?? "",
          website_url: optionalText(c.form, "website_url"),
          description: optionalText(c.form, "description")?.replace(/\r\n?/g, "\n"),
        }),
      );
      redirect(c.res, `${orgUrl(c.org.id, `/brand-profiles/${created.id}`)}?done=created`);
    },
    onRefused: (c, notice) => showProfiles(c, notice, Object.fromEntries(c.form)),
  },
  {
    method: "GET",
    path: "/orgs/:org/brand-profiles/:profile",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, await showProfile(c, doneNotice(c.query, DONE)));
    },
  },
  {
    method: "POST",
    path: "/orgs/:org/brand-profiles/:profile/sources",
    access: "org",
    async handler(c) {
      await call(
        c.caller,
        BrandKnowledgeActions.addSource,
        formParams(BrandKnowledgeActions.addSource, {
          org_id: c.org.id,
          id: c.params.profile,
          type: c.form.get("type") ?? "",
          title: optionalText(c.form, "title"),
          url: optionalText(c.form, "url"),
          content: c.form.has("content") ? textareaField(c.form, "content") : undefined,
        }),
      );
      redirect(c.res, `${orgUrl(c.org.id, `/brand-profiles/${c.params.profile}`)}?done=source-added`);
    },
    onRefused: (c, notice) => showProfile(c, notice, { type: c.form.get("type") ?? "", values: Object.fromEntries(c.form) }),
  },
];
