import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from './cluster.ts';

/** Ms a fault may take to heal before its recovery counts as never (recoveryAfter). */
export const RECOVERY_MS = 60_000;

/** A create's answer: the debate's id when accepted (201); throws only when no answer came. */
export async function createDebate(baseUrl: string, cookie: string, question: string) {
  const res = await fetch(`${baseUrl}/api/debates`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ question, agentCount: 2, maxRounds: 2, skipCache: true }),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { id: res.status === 201 ? (JSON.parse(text) as { debateId: string }).debateId : null };
}

/**
 * Ms from `since` (default now) until a debate created now, on whichever API answers, completes; null past
 * RECOVERY_MS: how long after a fault the cluster makes progress again.
 */
export async function recoveryAfter(
  cluster: Cluster,
  cookie: string,
  since = Date.now(),
): Promise<number | null> {
  const started = since;
  while (Date.now() - started < RECOVERY_MS) {
    for (const api of cluster.apis) {
      const created = await createDebate(api.baseUrl, cookie, 'Has the cluster recovered?').catch(() => ({
        id: null,
      }));
      if (!created.id) continue;
      while (Date.now() - started < RECOVERY_MS) {
        // Bounded: a read that never answers must not hold the run past its recovery wait.
        const res = await fetch(`${api.baseUrl}/api/debates/${created.id}`, {
          headers: { cookie },
          signal: AbortSignal.timeout(5000),
        }).catch(() => null);
        const body = res?.ok ? ((await res.json()) as { status: string }) : null;
        if (body?.status === 'completed') return Date.now() - started;
        await sleep(100);
      }
    }
    await sleep(250);
  }
  return null;
}
