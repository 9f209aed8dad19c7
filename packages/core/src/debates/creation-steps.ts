import type { Bus } from '../bus/ports.ts';
import type { SqlRunner } from '../db/sql.ts';
import { AppError } from '../shared/app-error.ts';
import type { ByokKeys } from './provider-keys-header.ts';

/** How long the API process holds BYOK keys for the engine to fetch; a later start fails clearly. */
const BYOK_HOLD_MS = 15 * 60_000;

/** Refuses when the account already has `limit` debates pending, running or paused. */
export async function assertConcurrentRoom(run: SqlRunner, ownerId: string, limit: number) {
  const [active] = await run<{ n: number }>(
    `select count(*)::int as n from debates
      where owner_id = ? and status in ('pending', 'running', 'paused') and deleted_at is null`,
    [ownerId],
  );
  const activeCount = Number(active?.n ?? 0);
  if (activeCount >= limit) {
    throw new AppError('CONCURRENT_LIMIT', `At most ${limit} debates may run at once`, {
      extra: { activeCount, limit },
    });
  }
}

/** Takes credits for a debate: the balance and its ledger row in the caller's transaction. */
export async function debitCredits(
  run: SqlRunner,
  debit: { ownerId: string; credits: number; debateId: string; note: string; at: Date },
) {
  await run('update users set credit_balance = credit_balance - ? where id = ?', [
    debit.credits,
    debit.ownerId,
  ]);
  await run(
    `insert into credit_ledger (id, user_id, delta, reason, note, debate_id, created_at)
     values (gen_random_uuid(), ?, ?, 'debate', ?, ?, ?)`,
    [debit.ownerId, -debit.credits, debit.note, debit.debateId, debit.at],
  );
}

/**
 * After commit: BYOK keys wait in memory for the engine, then the job goes on the queue. The debate is
 * stored and paid for by now, so a bus that refuses the job does not fail the request: the engines'
 * reconciler queues the debate once it has waited ENGINE_STALE_AFTER_MS, and `onQueueError` reports it.
 */
export async function dispatch(
  bus: Bus,
  job: { debateId: string; attempt: number },
  providerKeys: ByokKeys | null,
  onQueueError: (error: unknown) => void,
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
