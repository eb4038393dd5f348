import type { LookupAddress } from "node:dns";
import { useServiceDatabase } from "../support/test-database";
import type { Db } from "mongodb";
import { createEndpoint, listEndpoints, MAX_ENDPOINTS_PER_ORG, registrationRules, setEndpointActive, type RegistrationRules } from "../../services/webhooks/endpoints";
import { endpoints, WEBHOOK_COLLECTIONS } from "../../services/webhooks/store";
import { toCreatedEndpoint, toEndpointResource } from "../../services/webhooks/views";
import { systemClock } from "../../shared/clock";
import { newId } from "../../shared/ids";
import type { HostResolver } from "../../shared/net/url-guard";

let db: Db;
useServiceDatabase("webhooks", WEBHOOK_COLLECTIONS, (opened) => (db = opened));

/** A fake DNS: known names answer their address, the rest do not resolve. */
const fakeDns =
  (answers: Record<string, string>): HostResolver =>
  async (host): Promise<LookupAddress[]> => {
    if (!answers[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return [{ address: answers[host], family: 4 }];
  };

const DNS = fakeDns({ "hooks.customer.example": "93.184.215.14", "rebind.customer.example": "10.0.0.7", "local.customer.example": "127.0.0.1" });
const production: RegistrationRules = { ...registrationRules({ NODE_ENV: "production", OUTBOUND_ALLOW_LOOPBACK: undefined }), resolver: DNS };
const development: RegistrationRules = { ...registrationRules({ NODE_ENV: "test", OUTBOUND_ALLOW_LOOPBACK: undefined }), resolver: DNS };

const register = (url: string, rules = production, org_id = newId()) =>
  createEndpoint(db, { org_id, surface: "articles", url, events: undefined }, rules, systemClock);

describe("registering webhook endpoints", () => {
  it("derives production rules from the configuration", () => {
    expect(production).toMatchObject({ requireHttps: true, policy: { allowLoopback: false } });
    expect(development).toMatchObject({ requireHttps: false, policy: { allowLoopback: true } });
    expect(registrationRules({ NODE_ENV: "test", OUTBOUND_ALLOW_LOOPBACK: false }).policy.allowLoopback).toBe(false);
  });

  it("requires https in production", async () => {
    await expect(register("http://hooks.customer.example/in")).rejects.toThrow("url: must be an https URL");
    await expect(register("http://hooks.customer.example/in", development)).resolves.toMatchObject({ url: "http://hooks.customer.example/in" });
  });

  it.each([
    ["https://127.0.0.1/hooks", "resolves to a forbidden address"],
    ["https://localhost:8443/hooks", "resolves to a forbidden address"],
    ["https://10.1.2.3/hooks", "resolves to a forbidden address"],
    ["https://169.254.169.254/latest/meta-data/", "resolves to a forbidden address"],
    ["https://[fd00:ec2::254]/", "resolves to a forbidden address"],
    ["https://metadata.google.internal/computeMetadata/v1/", "resolves to a forbidden address"],
    ["https://rebind.customer.example/in", "resolves to a forbidden address"],
    ["https://local.customer.example/in", "resolves to a forbidden address"],
    ["https://nowhere.customer.example/in", "host name does not resolve"],
    ["https://user:pw@hooks.customer.example/in", "must not contain credentials"],
  ])("refuses %s in production", async (url, problem) => {
    const org_id = newId();
    await expect(register(url, production, org_id)).rejects.toMatchObject({ type: "invalid_request", message: `url: ${problem}` });
    expect(await endpoints(db).countDocuments({ org_id })).toBe(0);
  });

  it("keeps private and metadata targets refused in development, where loopback is allowed", async () => {
    await expect(register("http://127.0.0.1:8080/hooks", development)).resolves.toMatchObject({ active: true });
    await expect(register("http://10.1.2.3/hooks", development)).rejects.toThrow("url: resolves to a forbidden address");
    await expect(register("http://169.254.169.254/", development)).rejects.toThrow("url: resolves to a forbidden address");
  });

  it("creates the endpoint with a fresh whsec_ secret that only the creation response carries", async () => {
    const org_id = newId();
    const first = await register("https://hooks.customer.example/in", production, org_id);
    const second = await createEndpoint(db, { org_id, surface: "articles", url: "https://hooks.customer.example/b", events: ["job.failed", "job.failed"] }, production, systemClock);
    expect(toCreatedEndpoint(first)).toEqual({ id: first._id, object: "webhook_endpoint", url: "https://hooks.customer.example/in", events: ["job.succeeded", "job.failed"], secret: first.secret });
    expect(first.secret).toMatch(/^whsec_/);
    expect(second.secret).not.toBe(first.secret);
    expect(second.events).toEqual(["job.failed"]);

    const listed = (await listEndpoints(db, org_id, "articles")).map(toEndpointResource);
    expect(listed.map((e) => e.id)).toEqual([second._id, first._id]);
    expect(listed[0]).toEqual({ id: second._id, object: "webhook_endpoint", url: second.url, events: ["job.failed"], active: true, created_at: second.created_at.toISOString() });
    expect(JSON.stringify(listed)).not.toContain("whsec_");

    expect((await setEndpointActive(db, first._id, false, systemClock)).active).toBe(false);
    await expect(setEndpointActive(db, newId(), false, systemClock)).rejects.toThrow("No such webhook endpoint.");
  });

  it("gives a sibling surface's endpoint that surface's kinds by default", async () => {
    const voice = await createEndpoint(db, { org_id: newId(), surface: "voice", url: "https://hooks.customer.example/v", events: undefined }, production, systemClock);
    expect(voice.events).toEqual(["call.started", "call.completed", "call.failed", "campaign.completed", "job.succeeded", "job.failed"]);
    expect(await listEndpoints(db, voice.org_id, "articles")).toEqual([]);
  });

  it(`caps an organization at ${MAX_ENDPOINTS_PER_ORG} endpoints`, async () => {
    const org_id = newId();
    const now = new Date();
    await endpoints(db).insertMany(
      Array.from({ length: MAX_ENDPOINTS_PER_ORG }, (_, i) => ({
        _id: newId(),
        org_id,
        surface: "articles" as const,
        url: `https://hooks.customer.example/${i}`,
        events: ["job.failed"],
        secret: "whsec_x",
        active: true,
        created_at: now,
        updated_at: now,
      })),
    );
    await expect(register("https://hooks.customer.example/one-more", production, org_id)).rejects.toThrow(`at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints`);
  });
});
