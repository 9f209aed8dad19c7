import { type Config, OperatorError } from '@verdict/core';
import { loadUws, type Uws } from './load-uws.ts';

/** The HTTP server the API runs on, and the one line a log says about the choice. */
export type ServerChoice = { uws: Uws | null; note: string };

/**
 * STREAMS decides: `uws` must load (startup/uws-runtime.ts has made sure it can, or this refuses to
 * start), `node` never tries, `auto` takes uWebSockets.js where its binary loads.
 */
export function chooseServer(streams: Config['streams']): ServerChoice {
  if (streams === 'node') return { uws: null, note: "HTTP and streams: Node's http (STREAMS=node)" };
  const load = loadUws();
  if (load.uws) return { uws: load.uws, note: 'HTTP and streams: uWebSockets.js' };
  if (streams === 'uws') throw new OperatorError(`STREAMS=uws: uWebSockets.js does not load: ${load.reason}`);
  return { uws: null, note: `HTTP and streams: Node's http (uWebSockets.js not used: ${load.reason})` };
}
