/**
 * Publishes asked for within one turn of the event loop, started together. nats.js writes its buffer to the
 * socket once per microtask checkpoint, and the creates that finish in one poll phase (their statements'
 * answers read together) each reached their job's publish in a checkpoint of its own: one socket write
 * apiece, a write being ~0.1–0.2 ms of CPU on this machine's loopback (BENCHMARKS.md, "The engine, lean:
 * creation in one statement"). Started from the loop's check phase (setImmediate), the publishes asked for
 * during the poll phase go out in one write; each waits at most that turn.
 */
export function oneWritePerTurn(): (start: () => Promise<void>) => Promise<void> {
  let waiting: { start: () => Promise<void>; settle: PromiseWithResolvers<void> }[] = [];
  const startAll = () => {
    const now = waiting;
    waiting = [];
    for (const { start, settle } of now) start().then(settle.resolve, settle.reject);
  };
  return (start) => {
    const settle = Promise.withResolvers<void>();
    if (waiting.length === 0) setImmediate(startAll);
    waiting.push({ start, settle });
    return settle.promise;
  };
}
