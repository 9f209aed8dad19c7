import type { NatsBus, NatsBusOptions } from './nats.ts';
import { natsStartupProblem } from './nats-startup.ts';

/**
 * The NATS bus, with its client loaded only by a process that uses NATS: embedded mode never does. The
 * usual reasons it cannot start (NATS unreachable, credentials refused, no JetStream) become their one line.
 */
export async function natsBus(options: NatsBusOptions): Promise<NatsBus> {
  const { natsBus: connect } = await import('./nats.ts');
  try {
    return await connect(options);
  } catch (error) {
    throw natsStartupProblem(error, options.servers) ?? error;
  }
}
