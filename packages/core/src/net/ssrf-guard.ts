import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';
import { undici } from './undici.ts';

/**
 * Outbound requests to addresses users give us (webhook URLs, attachment URLs) must not reach the service's
 * own network: loopback, private ranges, link-local (cloud metadata at 169.254.169.254), CGNAT, multicast,
 * and every other range that is not plain public unicast, in IPv4, IPv6, IPv4-mapped, IPv4-compatible and
 * NAT64 IPv6 alike; cloud metadata endpoints are refused even when private targets are allowed.
 *
 * The real check happens when the socket connects: the host name is resolved once, every address it
 * resolves to is checked, and the socket goes to the address that was checked — so a name that resolves to
 * a public address at validation and to 127.0.0.1 a moment later (DNS rebinding) is still refused. IP
 * literals skip DNS and are checked the same way. Redirects are never followed by the agent's callers
 * here: a 3xx is an answer like any other, so a redirect to a private address goes nowhere.
 */
export type SsrfPolicy = {
  /** http:// targets as well as https:// (local development only). */
  allowHttp: boolean;
  /** Private and loopback targets (local development only). */
  allowPrivate: boolean;
  /** Ranges allowed whatever the policy, in CIDR notation (tests allow 127.0.0.2/32, so 127.0.0.1 stays refused). */
  allowedRanges?: readonly string[];
  /** Resolves a host name to its addresses; the system resolver by default (tests inject one). */
  resolve?: (hostname: string) => Promise<string[]>;
};

/** A target the guard refused: `reason` says which rule, without echoing more than the address. */
export class SsrfRefusedError extends Error {
  override name = 'SsrfRefusedError';
}

const systemResolve = async (hostname: string) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** `[::1]` → `::1`: URL host names keep IPv6 brackets, address parsers do not take them. */
const unbracketed = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/**
 * Why `address` (an IP literal) may not be connected to under `policy`, or null when it may. IPv4-mapped
 * IPv6 addresses (`::ffff:127.0.0.1`) and NAT64 ones (`64:ff9b::7f00:1`) are judged as the IPv4 address they
 * carry; cloud metadata endpoints are refused whatever the policy (METADATA).
 */
export function refusalOfAddress(address: string, policy: SsrfPolicy): string | null {
  const literal = unbracketed(address);
  const judged = judgedAddress(literal);
  if (!judged) return `${literal} is not an IP address`;
  const { ip, shown } = judged;
  if (METADATA.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits))) {
    return `${shown} is a cloud metadata address`;
  }
  for (const range of policy.allowedRanges ?? []) {
    const [network, bits] = ipaddr.parseCIDR(range);
    if (network.kind() === ip.kind() && ip.match(network, bits)) return null;
  }
  const kind = rangeOf(ip);
  if (kind === 'unicast') return null;
  if (policy.allowPrivate && PRIVATE_KINDS.has(kind)) return null;
  return `${shown} is a ${kind} address`;
}

/** The ranges WEBHOOK_ALLOW_PRIVATE opens: a developer's own machine and network, never metadata or multicast. */
const PRIVATE_KINDS = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat', 'unspecified']);

const cidr = (range: string) => ipaddr.parseCIDR(range);

/**
 * Cloud metadata and platform endpoints: refused even under WEBHOOK_ALLOW_PRIVATE and `allowedRanges`, since
 * they hand out the machine's credentials, and some sit in ranges that setting opens (CGNAT, unique-local)
 * or in public space. 169.254.169.254: AWS, GCP, Azure, OpenStack, DigitalOcean …; 169.254.170.2 and
 * 169.254.170.23: AWS ECS task credentials and EKS pod identity; 100.100.100.200: Alibaba Cloud (in CGNAT);
 * 192.0.0.192: Oracle Cloud (legacy); 168.63.129.16: Azure's WireServer (public space, reachable only from
 * inside Azure); fd00:ec2::254 and fd00:ec2::23: AWS IMDS and EKS pod identity over IPv6 (unique-local);
 * fd20:ce::254: GCP's metadata server over IPv6 (unique-local).
 */
const METADATA = [
  '169.254.169.254/32',
  '169.254.170.2/32',
  '169.254.170.23/32',
  '100.100.100.200/32',
  '192.0.0.192/32',
  '168.63.129.16/32',
  'fd00:ec2::254/128',
  'fd00:ec2::23/128',
  'fd20:ce::254/128',
].map(cidr);

/** NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address the gateway connects to. */
const NAT64 = cidr('64:ff9b::/96');
/** IPv4-compatible IPv6 (RFC 4291, deprecated): ipaddr.js calls it unicast. */
const IPV4_COMPATIBLE = cidr('::/96');
/** The only IPv6 space IANA allocates for global unicast; the rest is special-purpose or unallocated. */
const GLOBAL_UNICAST = cidr('2000::/3');

/**
 * The address to judge, and how to name it. IPv6 is read as the URL standard spells it, because ipaddr.js
 * reads the dotted `::8.8.8.8` (IPv4-compatible, `::808:808`) as the IPv4-mapped `::ffff:8.8.8.8`; an
 * IPv4-mapped address is judged as its IPv4 address, as the kernel connects to it. A NAT64 address
 * (64:ff9b::/96) is judged as the IPv4 address it embeds: DNS64 gives every public IPv4 host such an address
 * on IPv6-only networks (AWS, for one), so refusing the prefix would refuse the whole IPv4 internet there,
 * while the gateway would carry `64:ff9b::a9fe:a9fe` to 169.254.169.254.
 */
function judgedAddress(literal: string): { ip: ipaddr.IPv4 | ipaddr.IPv6; shown: string } | null {
  if (isIP(literal) === 4) {
    const ip = ipaddr.IPv4.parse(literal);
    return { ip, shown: ip.toString() };
  }
  if (isIP(literal) !== 6) return null;
  let canonical: string;
  try {
    canonical = unbracketed(new URL(`http://[${literal}]/`).hostname);
  } catch {
    return null; // e.g. a zone id (fe80::1%eth0), which no URL and no public address carries
  }
  const ip = ipaddr.IPv6.parse(canonical);
  if (ip.isIPv4MappedAddress()) {
    const v4 = ip.toIPv4Address();
    return { ip: v4, shown: v4.toString() };
  }
  if (ip.match(NAT64)) {
    const v4 = ipaddr.fromByteArray(ip.toByteArray().slice(12)) as ipaddr.IPv4;
    return { ip: v4, shown: `${canonical} (NAT64 of ${v4.toString()})` };
  }
  return { ip, shown: ip.toString() };
}

/**
 * ipaddr.js's range name, with IPv6 addresses it calls unicast but that are not globally routable unicast:
 * the deprecated IPv4-compatible ::/96 (`::7f00:1` is what `[::127.0.0.1]` becomes; such addresses were
 * meant for automatic tunnels, no public host has one) and everything outside 2000::/3 (`reserved`). The
 * other transition ranges keep ipaddr.js's name and are refused: 6to4 (2002::/16, deprecated by RFC 7526;
 * a relay would carry `2002:7f00:1::` to the embedded 127.0.0.1, and public 6to4 hosts are all but gone),
 * Teredo (2001::/32: the client's IPv4 is obfuscated in it, reached through a relay; no server is reached
 * over Teredo), the local-use NAT64 prefix (64:ff9b:1::/48, RFC 8215: where the IPv4 sits depends on the
 * operator's prefix length, so it cannot be judged) and SIIT's ::ffff:0:0:0/96.
 */
function rangeOf(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  const kind = ip.range();
  if (kind !== 'unicast' || ip.kind() === 'ipv4') return kind;
  if (ip.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  if (!ip.match(GLOBAL_UNICAST)) return 'reserved';
  return kind;
}

/**
 * Why `url` may not be used as a target under `policy`, or null when it may: its scheme, and its host when
 * that is an IP literal (the URL parser has already turned `2130706433`, `0x7f000001`, `017700000001` and
 * `127.1` into `127.0.0.1`). A host name is checked when connecting, as it may resolve differently then.
 */
export function refusalOfUrl(url: string, policy: SsrfPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol !== 'https:' && !(policy.allowHttp && parsed.protocol === 'http:')) {
    return policy.allowHttp ? 'only http:// and https:// URLs are allowed' : 'only https:// URLs are allowed';
  }
  const host = unbracketed(parsed.hostname);
  if (isIP(host) !== 0) return refusalOfAddress(host, policy);
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return policy.allowPrivate ? null : `${host} is a loopback name`;
  }
  return null;
}

/**
 * Resolves `hostname` (or takes it as the literal it is) and checks every address: one refused address
 * refuses the name, so a resolver cannot smuggle a private address in next to a public one. Returns the
 * first address, the one to connect to.
 */
export async function checkedAddressOf(hostname: string, policy: SsrfPolicy): Promise<string> {
  const host = unbracketed(hostname);
  const addresses = isIP(host) !== 0 ? [host] : await (policy.resolve ?? systemResolve)(host);
  if (addresses.length === 0) throw new SsrfRefusedError(`${host} resolves to no address`);
  for (const address of addresses) {
    const refusal = refusalOfAddress(address, policy);
    if (refusal) throw new SsrfRefusedError(`refused ${host}: ${refusal}`);
  }
  return addresses[0]!;
}

/** A connection whose host name was not resolved in time: the lookup itself is left to end on its own. */
export class LookupTimeoutError extends Error {
  override name = 'LookupTimeoutError';
  readonly code = 'UND_ERR_CONNECT_TIMEOUT';
}

/**
 * `work`, or a LookupTimeoutError once `timeoutMs` have passed or `signal` aborts, whichever comes first. A
 * lookup cannot be cancelled (the system resolver runs on libuv's thread pool); it is only no longer
 * waited for.
 */
function withinDeadline<T>(
  work: Promise<T>,
  host: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const expire = (why: string) => {
      cleanUp();
      reject(new LookupTimeoutError(`${host} was not resolved ${why}`));
    };
    const onAbort = () => expire('before the deadline');
    const timer = setTimeout(() => expire(`within ${timeoutMs} ms`), timeoutMs);
    const cleanUp = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        cleanUp();
        resolve(value);
      },
      (error: unknown) => {
        cleanUp();
        reject(error);
      },
    );
  });
}

export type GuardedAgentOptions = {
  /**
   * How long one connection may take, its name lookup and its TCP (and TLS) connect each; undici's own
   * connect timeout covers the socket, not a lookup done before it, so the lookup is bounded here.
   */
  connectTimeoutMs?: number;
  /**
   * A caller's deadline for everything the agent does (a page fetch's one deadline): a lookup under way
   * when it aborts fails at once. Undici does not fail a request whose connection is still being made
   * when the request's own signal aborts, so a deadline must reach the connector.
   */
  signal?: AbortSignal;
};

/**
 * An undici Agent whose every connection goes through `checkedAddressOf`: the socket connects to the
 * checked address, TLS still verifies the certificate against the host name. Pass it as `dispatcher` to
 * undici's `request` (or to a `fetch` of the same undici major: Node 24's built-in fetch is undici 7). The
 * name lookup is bounded by `connectTimeoutMs` and by `signal` (GuardedAgentOptions).
 *
 * @example
 * const agent = ssrfGuardedAgent({ allowHttp: false, allowPrivate: false });
 * await request('https://example.com/hook', { method: 'POST', body, dispatcher: agent }); // never follows redirects
 */
export function ssrfGuardedAgent(policy: SsrfPolicy, options: GuardedAgentOptions = {}): Agent {
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  const { Agent: UndiciAgent, buildConnector } = undici();
  const connect = buildConnector({ timeout: timeoutMs });
  return new UndiciAgent({
    connect: (connectOptions, callback) => {
      const host = unbracketed(connectOptions.hostname);
      withinDeadline(checkedAddressOf(host, policy), host, timeoutMs, options.signal).then(
        (address) => {
          const servername = connectOptions.servername ?? (isIP(host) === 0 ? host : undefined);
          connect({ ...connectOptions, hostname: address, ...(servername ? { servername } : {}) }, callback);
        },
        (error: unknown) =>
          callback(error instanceof Error ? error : new SsrfRefusedError(String(error)), null),
      );
    },
  });
}
