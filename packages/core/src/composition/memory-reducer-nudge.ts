import { Script } from 'node:vm';

/** Under the ~100 s after which V8's record of the embedder heap's allocations decays back to exactly zero. */
const NUDGE_EVERY_MS = 20_000;

/**
 * Lets V8's memory reducer run in this process once it goes quiet after a burst (10,000 stream opens, a
 * spike of requests), so the heap the burst grew is given back to the system within seconds, not kept.
 *
 * Why it is needed: the reducer starts only when every allocation rate it watches is low, the embedder's
 * heap (cppgc) among them. Since V8 13.1 (Node 24) a rate that was never anything but zero reads as 0, and
 * 0 fails the test: a process that puts nothing on the cppgc heap — this one — is always "high alloc", and
 * the reducer waits for its watchdog, 100 s after the last full collection, which ordinary collections
 * under a trickle of load keep pushing out. Measured on the API after 10,000 stream opens: RSS stayed ~14
 * KiB a stream above where it started; with the nudge the reducer ran ~8 s after the opens and RSS fell
 * to what the streams keep. Compiling a one-character `vm.Script` is the one allocation on the cppgc heap
 * JavaScript can make (Node's ContextifyScript): a few hundred bytes every 20 s, enough for the rate to read
 * as positive, and low. `memory-reducer-nudge.test.ts` fails once a Node release no longer
 * needs this (the reducer then runs without it), so it can go.
 *
 * For the process's entry (the API, an engine node), not for code that builds many cores in one process.
 */
export function nudgeMemoryReducer(): () => void {
  compileNothing();
  const timer = setInterval(compileNothing, NUDGE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function compileNothing() {
  new Script('0');
}
