import type { ClientOutcome } from './debates-sse.ts';

/**
 * The figures of one fan-out (bench/suites/edge.ts), the same for the API and the bare servers: what each
 * client received against when each event was published.
 */

export type FanoutFigures = {
  clients: number;
  events: number;
  /** Per (client, event): receipt − that event's earliest receipt over all clients (ms), sorted. */
  spread: Float64Array;
  /** Per (client, event): receipt − the event's publish time (ms), sorted. */
  latency: Float64Array;
  /** Empty when every client got every event once, in order, and its stream ended. */
  problems: string[];
};

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

/** `published`: each event's seq and publish time (epoch ms on this machine's clock), in order. */
export function fanoutFigures(
  outcomes: ClientOutcome[],
  published: { seq: number; publishAt: number }[],
): FanoutFigures {
  const publishAt = new Map(published.map((e) => [e.seq, e.publishAt]));
  const earliest = new Map<number, number>();
  for (const c of outcomes) {
    for (const e of c.events) earliest.set(e.id, Math.min(earliest.get(e.id) ?? Infinity, e.receivedAt));
  }
  const spread: number[] = [];
  const latency: number[] = [];
  const problems: string[] = [];
  const expected = published.map((e) => e.seq);
  let bad = 0;
  for (const [i, c] of outcomes.entries()) {
    for (const e of c.events) {
      const at = publishAt.get(e.id);
      if (at === undefined) continue;
      spread.push(e.receivedAt - (earliest.get(e.id) ?? e.receivedAt));
      latency.push(e.receivedAt - at);
    }
    const ids = c.events.map((e) => e.id);
    const same = ids.length === expected.length && ids.every((id, k) => id === expected[k]);
    if (!same || !c.ended || c.error) {
      bad++;
      if (problems.length < 3) {
        problems.push(
          `client ${i}: ${ids.length}/${expected.length} events, ended ${c.ended}, error ${c.error ?? 'none'}`,
        );
      }
    }
  }
  if (bad) problems.unshift(`${bad} of ${outcomes.length} clients did not receive every event in order`);
  const sorted = (values: number[]) => Float64Array.from(values).sort();
  return {
    clients: outcomes.length,
    events: published.length,
    spread: sorted(spread),
    latency: sorted(latency),
    problems,
  };
}

/** Events published within 20 ms of the previous one form one burst: the sizes of the bursts, in order. */
export function burstsOf(published: { publishAt: number }[]): number[] {
  return published.reduce<number[]>((acc, e, i, all) => {
    const prev = all[i - 1];
    if (prev && e.publishAt - prev.publishAt < 20) acc[acc.length - 1] = (acc.at(-1) ?? 0) + 1;
    else acc.push(1);
    return acc;
  }, []);
}

/** Several runs of one server as one: every (client, event) pair of each, and their events × clients summed. */
export function mergeFigures(runs: FanoutFigures[]): FanoutFigures & { writes: number } {
  const pooled = (pick: (f: FanoutFigures) => Float64Array) => {
    const all = new Float64Array(runs.reduce((n, f) => n + pick(f).length, 0));
    let at = 0;
    for (const f of runs) {
      all.set(pick(f), at);
      at += pick(f).length;
    }
    return all.sort();
  };
  return {
    clients: Math.max(0, ...runs.map((f) => f.clients)),
    events: Math.max(0, ...runs.map((f) => f.events)),
    writes: runs.reduce((n, f) => n + f.events * f.clients, 0),
    spread: pooled((f) => f.spread),
    latency: pooled((f) => f.latency),
    problems: runs.flatMap((f, i) => f.problems.map((p) => `run ${i + 1}: ${p}`)),
  };
}
