import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { ValidationError } from "../errors";
import { ForbiddenUrlError } from "./errors";

/**
 * The one guard for outbound requests to user-supplied URLs (docs/url-guard.md).
 * `allowLoopback` lets development and test deployments reach 127.0.0.0/8, ::1 and `localhost`;
 * private, link-local, metadata and reserved addresses stay refused even then. The deployment's
 * policy comes from `outboundPolicy(config)` in ./policy.
 */
export interface UrlPolicy {
  readonly allowLoopback: boolean;
}

/** Resolves a host name to every address it has; injectable so tests can fake DNS answers. */
export type HostResolver = (hostname: string) => Promise<dns.LookupAddress[]>;

export const systemResolver: HostResolver = (hostname) => dns.promises.lookup(hostname, { all: true });

const MAX_URL_LENGTH = 2048;

/** Cloud metadata endpoints reachable by name; their addresses are link-local or unique-local anyway. */
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata"]);

type AddressClass = "public" | "loopback" | "forbidden";

function classifyV4(addr: ipaddr.IPv4): AddressClass {
  const range = addr.range();
  if (range === "unicast") return "public";
  return range === "loopback" ? "loopback" : "forbidden";
}

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** IPv6 forms that carry an IPv4 address are judged by that address; anything not global unicast is refused. */
function classifyV6(addr: ipaddr.IPv6): AddressClass {
  const p = addr.parts;
  switch (addr.range()) {
    case "loopback":
      return "loopback";
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d
      return classifyV4(v4FromParts(p[6], p[7]));
    case "rfc6052": // NAT64: only the well-known 64:ff9b::/96 embeds the address in its last 32 bits
      return p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0
        ? classifyV4(v4FromParts(p[6], p[7]))
        : "forbidden";
    case "6to4": // 2002:AABB:CCDD::/48 tunnels to a.b.c.d
      return classifyV4(v4FromParts(p[1], p[2]));
    case "unicast":
      // ::a.b.c.d (IPv4-compatible) is deprecated and never a legitimate destination.
      return p.slice(0, 6).every((x) => x === 0) ? "forbidden" : "public";
    default:
      return "forbidden";
  }
}

/** Whether `ip` (any IPv4/IPv6 spelling ipaddr.js accepts) must not be connected to. Unparseable input is refused. */
export function isForbiddenAddress(ip: string, policy: UrlPolicy): boolean {
  if (!ipaddr.isValid(ip)) return true;
  const addr = ipaddr.parse(ip);
  const cls = addr.kind() === "ipv4" ? classifyV4(addr as ipaddr.IPv4) : classifyV6(addr as ipaddr.IPv6);
  return cls === "forbidden" || (cls === "loopback" && !policy.allowLoopback);
}

/** Names refused before any DNS lookup: metadata endpoints always, `localhost` unless loopback is allowed. */
function isForbiddenHostName(hostname: string, policy: UrlPolicy): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (METADATA_HOSTS.has(name)) return true;
  return !policy.allowLoopback && (name === "localhost" || name.endsWith(".localhost"));
}

/** The WHATWG URL's hostname without IPv6 brackets; IPv4 spellings (`2130706433`, `0x7f.1`) are already canonical. */
function bareHost(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** The problem with a parsed URL that is visible without DNS, or undefined when there is none. */
export function urlProblem(url: URL, policy: UrlPolicy): string | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an http(s) URL";
  if (url.username || url.password) return "must not contain credentials";
  const host = bareHost(url);
  if (net.isIP(host) ? isForbiddenAddress(host, policy) : isForbiddenHostName(host, policy)) {
    return "resolves to a forbidden address";
  }
  return undefined;
}

/** Parses a user-supplied URL and checks everything visible without DNS. Throws the platform's 400 naming `field`. */
export function checkUrlSyntax(raw: string, policy: UrlPolicy, field = "url"): URL {
  if (raw.length > MAX_URL_LENGTH) throw new ValidationError(`${field}: must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`${field}: must be an http(s) URL`);
  }
  const problem = urlProblem(url, policy);
  if (problem) throw new ValidationError(`${field}: ${problem}`);
  return url;
}

/**
 * Syntax check plus DNS: every address the host resolves to must be allowed. For registration time
 * (webhook endpoints, sources); connections are checked again by `guardedLookup`, since DNS can change.
 */
export async function assertUrlAllowed(
  raw: string,
  policy: UrlPolicy,
  opts: { field?: string; resolver?: HostResolver } = {},
): Promise<URL> {
  const field = opts.field ?? "url";
  const url = checkUrlSyntax(raw, policy, field);
  const host = bareHost(url);
  if (net.isIP(host)) return url;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await (opts.resolver ?? systemResolver)(host);
  } catch {
    throw new ValidationError(`${field}: host name does not resolve`);
  }
  if (addresses.length === 0) throw new ValidationError(`${field}: host name does not resolve`);
  if (addresses.some((a) => isForbiddenAddress(a.address, policy))) {
    throw new ValidationError(`${field}: resolves to a forbidden address`);
  }
  return url;
}

/**
 * The one registration check of every user-supplied outbound URL (brand websites, sources, webhook
 * endpoints, publishing targets): syntax, then DNS through the system resolver (hosts file included,
 * as the fetch will resolve), then the WHATWG serialization, which is what callers store and later fetch,
 * so every parser that reads it sees the same host (`http://a:1\\@b/` is stored as `http://a:1/@b/`).
 */
export async function registerOutboundUrl(
  raw: string,
  policy: UrlPolicy,
  opts: { field?: string; resolver?: HostResolver } = {},
): Promise<string> {
  return (await assertUrlAllowed(raw, policy, opts)).href;
}

/**
 * A `dns.lookup`-compatible function for sockets (`net.connect({ lookup })`, undici's `connect.lookup`):
 * it resolves, then fails with a ForbiddenUrlError (code EFORBIDDENADDRESS) when ANY answer is forbidden,
 * so a name that turns private after registration (DNS rebinding) is caught when the connection is made.
 */
export function guardedLookup(policy: UrlPolicy, resolver: HostResolver = systemResolver): net.LookupFunction {
  return (hostname, options, callback) => {
    if (isForbiddenHostName(hostname, policy)) {
      callback(new ForbiddenUrlError(`${hostname} is a forbidden host`), "");
      return;
    }
    resolver(hostname).then(
      (answers) => {
        const forbidden = answers.find((a) => isForbiddenAddress(a.address, policy));
        if (forbidden) {
          callback(new ForbiddenUrlError(`${hostname} resolves to a forbidden address`, { address: forbidden.address }), "");
          return;
        }
        const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
        const usable = family === 4 || family === 6 ? answers.filter((a) => a.family === family) : answers;
        if (usable.length === 0) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname }), "");
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, usable[0].address, usable[0].family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, ""),
    );
  };
}
