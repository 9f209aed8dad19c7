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
 * NATS_STREAM_REPLICAS asks for more copies of a stream than the NATS reached can keep: a lone server
 * (`cluster` null), or a cluster with fewer JetStream servers up than copies (`said`: JetStream's answer).
 */
export class StreamReplicasUnavailable extends Error {
  override name = 'StreamReplicasUnavailable';
  readonly replicas: number;
  readonly cluster: string | null;
  readonly said: string | undefined;
  constructor(replicas: number, cluster: string | null, said?: string) {
    super(
      cluster === null
        ? `${replicas} stream replicas asked of a NATS server that is not in a cluster`
        : `${replicas} stream replicas asked of NATS cluster ${cluster}: ${said}`,
    );
    this.replicas = replicas;
    this.cluster = cluster;
    this.said = said;
  }
}

function replicasRefusal(error: StreamReplicasUnavailable, at: string, shown: string): OperatorError {
  const asked = `NATS_STREAM_REPLICAS=${error.replicas} asks for ${error.replicas} copies of each stream`;
  const lower = `or set NATS_STREAM_REPLICAS=1 (${shown})`;
  if (error.cluster === null) {
    return new OperatorError(
      `${asked}, but NATS at ${at} is a single server, not a cluster: list the servers of a NATS cluster of at ` +
        `least ${error.replicas} with JetStream in NATS_URL, ${lower}`,
    );
  }
  return new OperatorError(
    `${asked}, but NATS cluster "${error.cluster}" at ${at} cannot place them (JetStream: ${error.said}): it ` +
      `needs at least ${error.replicas} servers with JetStream up; start them, ${lower}`,
  );
}

/**
 * The one-line refusal for a NATS a process cannot start on (unreachable, credentials refused, no
 * JetStream, more stream replicas than it can keep), or null for any other failure, which stays as it is.
 */
export function natsStartupProblem(error: unknown, servers: string[]): OperatorError | null {
  const printable = servers.map(printableServer);
  const at = printable.map((server) => server.address).join(', ');
  const shown = `NATS_URL=${printable.map((server) => server.shown).join(',')}`;
  if (error instanceof StreamReplicasUnavailable) return replicasRefusal(error, at, shown);
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
