/** Socket errors a client gets when no PostgreSQL (or NATS) answers at an address, in words. */
const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

/**
 * Why a connection could not be opened, in words, from the error or one it wraps (a `cause` chain, the
 * AggregateError of a host with several addresses); null when it is not a network failure.
 */
export function networkCause(error: unknown): string | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (!(e instanceof Error) || seen.has(e)) continue;
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CAUSES[code]) return NETWORK_CAUSES[code];
    // node-postgres's own connectionTimeoutMillis expiry carries no code.
    if (/connection timeout|timeout expired/i.test(e.message)) return 'no answer in time';
    queue.push(e.cause, ...(e instanceof AggregateError ? e.errors : []));
  }
  return null;
}
