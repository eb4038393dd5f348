import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import type { LookupAddress } from "node:dns";
import { ValidationError } from "../../shared/errors";
import { ForbiddenUrlError } from "../../shared/net/errors";
import { safeFetch } from "../../shared/net/safe-fetch";
import { assertUrlAllowed, checkUrlSyntax, guardedLookup, isForbiddenAddress, registerOutboundUrl, type HostResolver } from "../../shared/net/url-guard";
import { httpUrl } from "../../shared/validation";

const strict = { allowLoopback: false };
const dev = { allowLoopback: true };

/** A fake DNS whose answers the test can change between calls, as a rebinding attacker would. */
function fakeDns(answers: Record<string, string[]>): HostResolver & { answers: Record<string, string[]> } {
  const resolver = async (hostname: string): Promise<LookupAddress[]> => {
    const ips = resolver.answers[hostname];
    if (!ips) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return ips.map((address) => ({ address, family: net.isIP(address) }));
  };
  resolver.answers = answers;
  return resolver;
}

function syntaxError(raw: string, policy = strict): string {
  try {
    checkUrlSyntax(raw, policy);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as Error).message;
  }
  return "accepted";
}

const FORBIDDEN_ALWAYS = [
  "10.0.0.1",
  "172.16.5.4",
  "192.168.1.1",
  "169.254.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "100.100.100.200",
  "0.0.0.0",
  "255.255.255.255",
  "224.0.0.1",
  "240.0.0.1",
  "192.0.2.1",
  "::",
  "fe80::1",
  "fc00::1",
  "fd00:ec2::254",
  "ff02::1",
  "::ffff:10.0.0.1",
  "::ffff:169.254.169.254",
  "::ffff:a9fe:a9fe",
  "::7f00:1",
  "::a00:1",
  "64:ff9b::a00:1",
  "64:ff9b::a9fe:a9fe",
  "2002:a9fe:a9fe::1",
  "2001:db8::1",
  "not-an-address",
];
const LOOPBACK = ["127.0.0.1", "127.255.255.254", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "2130706433", "0177.0.0.1", "0x7f.1", "127.1"];
const PUBLIC = ["8.8.8.8", "93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"];

describe("isForbiddenAddress", () => {
  it.each(FORBIDDEN_ALWAYS)("refuses %s with or without loopback allowed", (ip) => {
    expect(isForbiddenAddress(ip, strict)).toBe(true);
    expect(isForbiddenAddress(ip, dev)).toBe(true);
  });

  it.each(LOOPBACK)("refuses loopback %s unless loopback is allowed", (ip) => {
    expect(isForbiddenAddress(ip, strict)).toBe(true);
    expect(isForbiddenAddress(ip, dev)).toBe(false);
  });

  it.each(PUBLIC)("allows public %s", (ip) => {
    expect(isForbiddenAddress(ip, strict)).toBe(false);
  });
});

describe("checkUrlSyntax", () => {
  it.each([
    "http://127.0.0.1/",
    "http://localhost:3000/",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.1/",
    "http://0x7f000001/",
    "http://127.1/",
    "http://%31%32%37.0.0.1/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://10.0.0.1/",
    "http://0xa9fea9fe/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata.google.internal./",
    "http://100.64.0.1/",
    "https://0.0.0.0:8443/",
  ])("refuses %s when loopback is not allowed", (raw) => {
    expect(syntaxError(raw)).toBe("url: resolves to a forbidden address");
  });

  it.each(["http://user:pass@example.com/", "https://token@example.com/"])("refuses credentials in %s", (raw) => {
    expect(syntaxError(raw)).toBe("url: must not contain credentials");
  });

  it.each(["ftp://example.com/file", "file:///etc/passwd", "javascript:alert(1)", "gopher://example.com/", "data:text/html,hi", "example.com", "not a url", ""])(
    "refuses %j as not an http(s) URL",
    (raw) => {
      expect(syntaxError(raw)).toBe("url: must be an http(s) URL");
    },
  );

  it("names the field it checks and bounds the length", () => {
    expect(() => checkUrlSyntax("ftp://x", strict, "endpoint_url")).toThrow("endpoint_url: must be an http(s) URL");
    expect(syntaxError(`https://example.com/${"a".repeat(2100)}`)).toBe("url: must be at most 2048 characters");
  });

  it("is a 400 invalid_request", () => {
    try {
      checkUrlSyntax("http://10.0.0.1/", strict);
      throw new Error("accepted");
    } catch (err) {
      expect(err).toMatchObject({ code: 400, type: "invalid_request" });
    }
  });

  it("allows public URLs and returns them parsed", () => {
    expect(checkUrlSyntax("https://example.com/a?b=1#c", strict).href).toBe("https://example.com/a?b=1#c");
    expect(checkUrlSyntax("http://93.184.216.34:8080/", strict).port).toBe("8080");
    expect(checkUrlSyntax("http://[2606:4700:4700::1111]/", strict).hostname).toBe("[2606:4700:4700::1111]");
  });

  it("with loopback allowed accepts loopback but still refuses private and metadata addresses", () => {
    for (const ok of ["http://127.0.0.1:8080/", "http://localhost:3000/x", "http://[::1]/", "http://2130706433/"]) {
      expect(syntaxError(ok, dev)).toBe("accepted");
    }
    for (const bad of ["http://10.0.0.1/", "http://192.168.0.1/", "http://172.16.0.1/", "http://169.254.169.254/", "http://metadata.google.internal/", "http://[fd00:ec2::254]/", "http://[::ffff:10.0.0.1]/", "http://100.64.0.1/", "http://0.0.0.0/"]) {
      expect(syntaxError(bad, dev)).toBe("url: resolves to a forbidden address");
    }
  });
});

describe("assertUrlAllowed", () => {
  const dns = fakeDns({ "brand.test": ["93.184.216.34"], "mixed.test": ["93.184.216.34", "10.1.2.3"], "meta.test": ["fd00:ec2::254"] });

  it("accepts a name whose every address is public", async () => {
    await expect(assertUrlAllowed("https://brand.test/about", strict, { resolver: dns })).resolves.toBeInstanceOf(URL);
  });

  it("refuses a name with any forbidden address, and one that does not resolve", async () => {
    await expect(assertUrlAllowed("https://mixed.test/", strict, { resolver: dns })).rejects.toThrow("url: resolves to a forbidden address");
    await expect(assertUrlAllowed("https://meta.test/", dev, { resolver: dns })).rejects.toThrow("url: resolves to a forbidden address");
    await expect(assertUrlAllowed("https://nowhere.test/", strict, { resolver: dns, field: "endpoint" })).rejects.toThrow(
      "endpoint: host name does not resolve",
    );
  });

  it("runs the syntax checks first", async () => {
    await expect(assertUrlAllowed("http://u:p@brand.test/", strict, { resolver: dns })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("guardedLookup", () => {
  const dns = fakeDns({ "brand.test": ["93.184.216.34", "2606:4700::1"], "rebind.test": ["10.0.0.1"] });
  const lookup = (host: string, options: object) =>
    new Promise<{ address: unknown; family?: number }>((resolve, reject) =>
      guardedLookup(strict, dns)(host, options, (err, address, family) => (err ? reject(err) : resolve({ address, family }))),
    );

  it("answers like dns.lookup, with one address or all of them, filtered by family", async () => {
    await expect(lookup("brand.test", {})).resolves.toEqual({ address: "93.184.216.34", family: 4 });
    await expect(lookup("brand.test", { family: 6 })).resolves.toEqual({ address: "2606:4700::1", family: 6 });
    await expect(lookup("brand.test", { all: true })).resolves.toEqual({
      address: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:4700::1", family: 6 },
      ],
      family: undefined,
    });
  });

  it("fails with EFORBIDDENADDRESS when the answer is forbidden, and for forbidden names", async () => {
    await expect(lookup("rebind.test", {})).rejects.toMatchObject({ code: "EFORBIDDENADDRESS", address: "10.0.0.1" });
    await expect(lookup("localhost", {})).rejects.toBeInstanceOf(ForbiddenUrlError);
    await expect(lookup("metadata.google.internal", { all: true })).rejects.toBeInstanceOf(ForbiddenUrlError);
  });

  it("stops a plain socket from connecting to a name that resolves to a forbidden address", async () => {
    const socket = net.connect({ host: "rebind.test", port: 80, lookup: guardedLookup(strict, dns) });
    const err = await new Promise<NodeJS.ErrnoException>((resolve) => socket.once("error", resolve));
    expect(err.code).toBe("EFORBIDDENADDRESS");
  });
});

describe("guard at connection and redirect time", () => {
  let server: http.Server;
  let port: number;
  const received: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      received.push(req.url ?? "");
      const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
      // `connection: close`: every request needs a new connection, hence a new lookup.
      if (to) res.writeHead(302, { location: to, connection: "close" }).end();
      else res.writeHead(200, { "content-type": "text/plain", connection: "close" }).end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    received.length = 0;
  });

  it("refuses a name that resolved to an allowed address at registration and to a private one at connect time", async () => {
    const dns = fakeDns({ "rebind.test": ["127.0.0.1"] });
    const url = `http://rebind.test:${port}/hook`;
    await assertUrlAllowed(url, dev, { resolver: dns });
    const first = await safeFetch(url, { policy: dev, resolver: dns });
    expect(first.body.toString()).toBe("ok");

    dns.answers["rebind.test"] = ["10.0.0.1"];
    const err = await safeFetch(url, { policy: dev, resolver: dns }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenUrlError);
    expect(err).toMatchObject({ code: "EFORBIDDENADDRESS", url, address: "10.0.0.1" });
    expect((err as Error).message).not.toContain("10.0.0.1");
    expect(received).toEqual(["/hook"]);
  });

  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://0xa9fea9fe/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://metadata.google.internal/",
    "ftp://example.com/",
    "http://user:pw@example.com/",
  ])("refuses a redirect from an allowed loopback server to %s", async (target) => {
    const err = await safeFetch(`http://127.0.0.1:${port}/go?to=${encodeURIComponent(target)}`, { policy: dev }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenUrlError);
    expect((err as ForbiddenUrlError).message).toMatch(/^blocked by URL guard: redirect to /);
    expect(received).toHaveLength(1);
  });

  it("refuses a redirect to a name that resolves to a private address", async () => {
    const dns = fakeDns({ "internal.test": ["192.168.10.5"] });
    const err = await safeFetch(`http://127.0.0.1:${port}/go?to=${encodeURIComponent("http://internal.test/admin")}`, { policy: dev, resolver: dns }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "EFORBIDDENADDRESS", url: "http://internal.test/admin" });
  });

  it("refuses the loopback server itself when loopback is not allowed, without connecting", async () => {
    await expect(safeFetch(`http://127.0.0.1:${port}/`, { policy: strict })).rejects.toBeInstanceOf(ForbiddenUrlError);
    const dns = fakeDns({ "looks-public.test": ["127.0.0.1"] });
    await expect(safeFetch(`http://looks-public.test:${port}/`, { policy: strict, resolver: dns })).rejects.toMatchObject({ code: "EFORBIDDENADDRESS" });
    expect(received).toEqual([]);
  });
});

describe("registerOutboundUrl: one normalization and one resolution for every outbound URL", () => {
  it("returns the WHATWG serialization, so every parser after it sees the host the guard judged", async () => {
    const dns = fakeDns({ "brand.test": ["93.184.216.34"] });
    await expect(registerOutboundUrl("HTTP://Brand.TEST:80/a/./b/../c?q=1", strict, { resolver: dns })).resolves.toBe("http://brand.test/a/c?q=1");
    await expect(registerOutboundUrl("http://127.0.0.1:4900\\@10.0.0.1/", dev)).resolves.toBe("http://127.0.0.1:4900/@10.0.0.1/");
    await expect(registerOutboundUrl("http://127.0.0.1:4900\\@10.0.0.1/", strict)).rejects.toThrow("url: resolves to a forbidden address");
    await expect(registerOutboundUrl("http://0x7f.1/", strict)).rejects.toThrow("url: resolves to a forbidden address");
  });

  it("resolves names the way the fetch will (a hosts-file name mapped to loopback is refused in production)", async () => {
    const hostsFile = fakeDns({ "intranet-alias": ["127.0.0.1"] });
    await expect(registerOutboundUrl("http://intranet-alias/", strict, { resolver: hostsFile, field: "website_url" })).rejects.toThrow(
      "website_url: resolves to a forbidden address",
    );
    await expect(registerOutboundUrl("http://intranet-alias/", dev, { resolver: hostsFile })).resolves.toBe("http://intranet-alias/");
  });

  it("the body schema normalizes at the boundary, idempotently", () => {
    for (const raw of ["http://127.0.0.1:4900\\@10.0.0.1/", "HTTPS://EXAMPLE.com:443/%7efoo/../bar", "http://a.test/ü?é#x", "http://[::FFFF:7F00:1]/"]) {
      const once = httpUrl.parse(raw);
      expect(once).toBe(new URL(raw).href);
      expect(httpUrl.parse(once)).toBe(once);
    }
  });
});
