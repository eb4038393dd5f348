import type { IntegrationKind } from "../../../../shared/schemas/publishing";

/**
 * The form of each integration kind: which inputs to show. Only the presentation lives here;
 * what a valid value is stays in the shared contract (CreateIntegrationBody), checked by the
 * articles service like any `POST /admin/orgs/{id}/integrations`. Field mappings keep their defaults.
 */

export interface FormField {
  name: string;
  label: string;
  required?: boolean;
  secret?: boolean;
  type?: "text" | "url";
  placeholder?: string;
  hint?: string;
  options?: string[];
  /** Sent as a number (e.g. Strapi's major version). */
  numeric?: boolean;
}

export const INTEGRATION_FORMS: Record<IntegrationKind, { label: string; fields: FormField[] }> = {
  wordpress: {
    label: "WordPress",
    fields: [
      { name: "site_url", label: "Site URL", required: true, type: "url", placeholder: "https://blog.example.com" },
      { name: "username", label: "Username", required: true },
      { name: "application_password", label: "Application password", required: true, secret: true, hint: "Users → Profile → Application Passwords" },
    ],
  },
  ghost: {
    label: "Ghost",
    fields: [
      { name: "site_url", label: "Admin API URL", required: true, type: "url", placeholder: "https://example.ghost.io" },
      { name: "admin_api_key", label: "Admin API key", required: true, secret: true, hint: "{id}:{secret}, from Settings → Integrations" },
    ],
  },
  contentful: {
    label: "Contentful",
    fields: [
      { name: "space_id", label: "Space id", required: true },
      { name: "environment_id", label: "Environment id", placeholder: "master" },
      { name: "content_type_id", label: "Content type id", required: true },
      { name: "locale", label: "Locale", placeholder: "en-US" },
      { name: "body_format", label: "Body format", options: ["rich_text", "markdown"] },
      { name: "management_token", label: "Management token", required: true, secret: true, hint: "A personal access token (CFPAT-…)" },
    ],
  },
  sanity: {
    label: "Sanity",
    fields: [
      { name: "project_id", label: "Project id", required: true },
      { name: "dataset", label: "Dataset", required: true, placeholder: "production" },
      { name: "document_type", label: "Document type", placeholder: "post" },
      { name: "studio_url", label: "Studio URL", type: "url" },
      { name: "api_token", label: "API token", required: true, secret: true, hint: "A robot token with Editor rights" },
    ],
  },
  strapi: {
    label: "Strapi",
    fields: [
      { name: "site_url", label: "Site URL", required: true, type: "url", placeholder: "https://cms.example.com" },
      { name: "collection", label: "Collection (plural API id)", required: true, placeholder: "articles" },
      { name: "strapi_version", label: "Strapi version", options: ["5", "4"], numeric: true },
      { name: "body_format", label: "Body format", options: ["markdown", "html"] },
      { name: "api_token", label: "API token", required: true, secret: true },
    ],
  },
};

export function isIntegrationKind(kind: string): kind is IntegrationKind {
  return Object.prototype.hasOwnProperty.call(INTEGRATION_FORMS, kind);
}

/** The request body from a posted form: the kind's fields, left out when empty (so defaults apply). */
export function integrationBody(kind: IntegrationKind, form: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = { kind, name: form.get("name") ?? "" };
  for (const f of INTEGRATION_FORMS[kind].fields) {
    const value = form.get(f.name);
    if (value === null || value.trim() === "") continue;
    body[f.name] = f.numeric ? Number(value) : value;
  }
  return body;
}
