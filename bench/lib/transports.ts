import { nodeCommandForUws } from '@verdict/api';
import type { NodeCommand } from './spawn-server.ts';

/** The HTTP servers the API can run on (STREAMS): Node's http, or uWebSockets.js. */
export type Transport = 'node' | 'uws';

/**
 * How to start a bench server that runs on `transport` (spawnServer's `node`): for uWebSockets.js, the
 * node that loads its binary here (through a newer C library's loader on Debian 12). The API's own entry
 * would restart itself through that loader with execve, which closes the IPC channel the benches talk over.
 */
export function nodeCommandFor(transport: Transport): NodeCommand | undefined {
  return transport === 'uws' ? nodeCommandForUws() : undefined;
}
