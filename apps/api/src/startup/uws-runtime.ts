import { loadUws } from '../http/uws/load-uws.ts';
import { nodeCommandForUws } from './node-with-uws.ts';

/**
 * Imported first by the API's entry (main.ts), before any other module runs: with STREAMS=uws on a system
 * whose C library is too old for uWebSockets.js (Debian 12), the process prepares a newer one once
 * (newer-libc.ts) and replaces itself with the same command started through that library's loader — same
 * PID, arguments and environment, so supervisors, signals and `npm start` see one process. `auto` and
 * `node` never fetch anything: they fall back to Node's http (server.ts says why, once).
 *
 * This runs before the configuration is loaded (a replaced process would load it twice), so it reads
 * STREAMS itself; config/env-schema.ts validates the same variable for everything after.
 */

/** Set on the replacement: the real node binary (the loader is its execPath otherwise). */
const REEXECUTED = 'VERDICT_REEXECUTED_NODE';

export function ensureUwsRuntime(env: NodeJS.ProcessEnv = process.env): void {
  const realNode = env[REEXECUTED];
  if (realNode) {
    // Children started with process.execPath (workers of tests, benches, the chaos run) must start node,
    // not the loader; each replaces itself again if it needs to, from the cache.
    process.execPath = realNode;
    delete env[REEXECUTED];
  }
  if (env.STREAMS !== 'uws') return;
  const load = loadUws();
  if (load.uws) return;
  if (realNode) {
    throw new Error(
      `STREAMS=uws: uWebSockets.js does not load even through a newer C library: ${load.reason}`,
    );
  }
  if (!process.execve)
    throw new Error('STREAMS=uws: this Node.js cannot replace its process (process.execve)');
  // Node closes its IPC channel across execve: a forked process must be started through the loader
  // already (node-with-uws.ts), as the benches do.
  if (process.channel) throw new Error('STREAMS=uws: start a forked process with nodeCommandForUws()');
  const node = process.execPath;
  const { command, args } = nodeCommandForUws(node);
  const argv = [command, ...args, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(command, argv, { ...env, [REEXECUTED]: node });
}

ensureUwsRuntime();
