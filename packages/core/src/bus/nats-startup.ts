import { networkCause } from '../shared/network-cause.ts';
import { OperatorError } from '../shared/operator-error.ts';

/** One NATS_URL entry as it may be printed: without user, password or token (all secrets to NATS). */
function printableServer(server: string): { shown: string; address: string } {
  const withScheme = server.includes('://') ? server : `nats://${server}`;
  try {
    const parsed = new URL(withScheme);
    parsed.username = '';
    parsed.password = '';
    const shown = server.includes('://') ? parsed.toString().replace(/\/$/, '') : parsed.host;
    return { shown, address: `${parsed.hostname}:${parsed.port || '4222'}` };
  } catch {
    return { shown: '(unparseable)', address: '(unparseable)' };
  }
}

/**
 * The one-line refusal for a NATS a process cannot start on (unreachable, credentials refused, no
 * JetStream), or null for any other failure, which stays as it is.
 */
export function natsStartupProblem(error: unknown, servers: string[]): OperatorError | null {
  const printable = servers.map(printableServer);
  const at = printable.map((server) => server.address).join(', ');
  const shown = `NATS_URL=${printable.map((server) => server.shown).join(',')}`;
  const cause = networkCause(error);
  if (cause) return new OperatorError(`cannot reach NATS at ${at} (${cause}); is it running? ${shown}`);
  const name = error instanceof Error ? error.name : '';
  if (name === 'AuthorizationError' || name === 'UserAuthenticationExpiredError') {
    return new OperatorError(
      `NATS at ${at} refused the credentials (${(error as Error).message}); check ${shown}`,
    );
  }
  if (name === 'JetStreamNotEnabled') {
    return new OperatorError(
      `NATS at ${at} has no JetStream, which keeps the debate jobs and events: start nats-server with -js (${shown})`,
    );
  }
  return null;
}
