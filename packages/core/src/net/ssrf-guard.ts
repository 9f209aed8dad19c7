import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';

/**
 * Outbound requests to addresses users give us (webhook URLs, attachment URLs) must not reach the service's
 * own network: loopback, private ranges, link-local (cloud metadata at 169.254.169.254), CGNAT, multicast,
 * and every other range that is not plain public unicast, in IPv4, IPv6 and IPv4-mapped IPv6 alike.
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
 * IPv6 addresses (`::ffff:127.0.0.1`) are judged as the IPv4 address they carry.
 */
export function refusalOfAddress(address: string, policy: SsrfPolicy): string | null {
  const literal = unbracketed(address);
  if (!ipaddr.isValid(literal)) return `${literal} is not an IP address`;
  const parsed = ipaddr.process(literal);
  for (const range of policy.allowedRanges ?? []) {
    const [network, bits] = ipaddr.parseCIDR(range);
    if (network.kind() === parsed.kind() && parsed.match(network, bits)) return null;
  }
  const kind = parsed.range();
  if (kind === 'unicast') return null;
  if (policy.allowPrivate && PRIVATE_KINDS.has(kind)) return null;
  return `${parsed.toString()} is a ${kind} address`;
}

/** The ranges WEBHOOK_ALLOW_PRIVATE opens: a developer's own machine and network, never metadata or multicast. */
const PRIVATE_KINDS = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat', 'unspecified']);

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

/**
 * An undici Agent whose every connection goes through `checkedAddressOf`: the socket connects to the
 * checked address, TLS still verifies the certificate against the host name. Pass it as `dispatcher` to
 * undici's `request` (or to a `fetch` of the same undici major: Node 24's built-in fetch is undici 7).
 *
 * @example
 * const agent = ssrfGuardedAgent({ allowHttp: false, allowPrivate: false });
 * await request('https://example.com/hook', { method: 'POST', body, dispatcher: agent }); // never follows redirects
 */
export function ssrfGuardedAgent(policy: SsrfPolicy, options: { connectTimeoutMs?: number } = {}): Agent {
  const connect = buildConnector({ timeout: options.connectTimeoutMs ?? 10_000 });
  return new Agent({
    connect: (connectOptions, callback) => {
      checkedAddressOf(connectOptions.hostname, policy).then(
        (address) => {
          const hostname = unbracketed(connectOptions.hostname);
          const servername = connectOptions.servername ?? (isIP(hostname) === 0 ? hostname : undefined);
          connect({ ...connectOptions, hostname: address, ...(servername ? { servername } : {}) }, callback);
        },
        (error: unknown) =>
          callback(error instanceof Error ? error : new SsrfRefusedError(String(error)), null),
      );
    },
  });
}
