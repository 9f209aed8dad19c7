import type { NatsBus, NatsBusOptions } from './nats.ts';

/** The NATS bus, with its client loaded only by a process that uses NATS: embedded mode never does. */
export async function natsBus(options: NatsBusOptions): Promise<NatsBus> {
  return (await import('./nats.ts')).natsBus(options);
}
