import type { ByokKeys } from '../provider-keys-header.ts';
import type { CreationResources } from './resources.ts';

/** How long the API process holds BYOK keys for the engine to fetch; a later start fails clearly. */
const BYOK_HOLD_MS = 15 * 60_000;

/**
 * After commit: BYOK keys wait in memory for the engine, then the job goes on the queue. The debate is
 * stored and paid for by now, so a bus that refuses the job does not fail the request: the engines'
 * reconciler queues the debate once it has waited ENGINE_STALE_AFTER_MS, and `onQueueError` reports it.
 */
export async function dispatch(
  { bus, onQueueError }: CreationResources,
  job: { debateId: string; attempt: number },
  providerKeys: ByokKeys | null,
) {
  try {
    if (providerKeys) {
      const release = await bus.keys.hold(job.debateId, providerKeys);
      setTimeout(release, BYOK_HOLD_MS).unref();
    }
    await bus.jobs.enqueue(job);
  } catch (error) {
    onQueueError(error);
  }
}
