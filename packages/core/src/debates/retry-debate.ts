import { type FundingSource, MODE_CREDITS, type Plan } from '@verdict/contracts';
import { chooseFunding } from '../billing/funding.ts';
import type { Bus } from '../bus/ports.ts';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/orm.ts';
import { sqlIn } from '../db/sql.ts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { assertConcurrentRoom, debitCredits, dispatch } from './creation-steps.ts';
import type { ByokKeys } from './provider-keys-header.ts';

/**
 * POST /api/debates/:id/retry: a failed debate starts over as a new attempt with the same question and
 * mode; its previous events and turns are cleared. A debit that was refunded on the failure is taken again
 * (same rules as a create); BYOK debates need their X-Provider-Keys again, as they were never stored.
 */
export function createDebateRetrier(
  db: Database,
  bus: Bus,
  clock: Clock,
  config: Config,
  onQueueError: (error: unknown) => void = () => {},
) {
  return async (userId: string, id: string, providerKeys: ByokKeys | null): Promise<{ attempt: number }> => {
    const engineHolds = async () => (await bus.commands.send(id, { type: 'inspect' }, 1000)) !== 'no_engine';
    const result = await db.em().transactional(async (em) => {
      const run = sqlIn(em);
      const [owner] = await run<{ plan: Plan; credit_balance: number }>(
        'select plan, credit_balance from users where id = ? for update',
        [userId],
      );
      const [debate] = await run<{
        status: string;
        mode: keyof typeof MODE_CREDITS;
        funding_source: FundingSource;
        attempt: number;
      }>(
        'select status, mode, funding_source, attempt from debates where id = ? and owner_id = ? and deleted_at is null for update',
        [id, userId],
      );
      if (!owner || !debate) throw new AppError('NOT_FOUND', 'Debate not found');
      if (debate.status !== 'failed') {
        if (await engineHolds())
          throw new AppError('DEBATE_ALREADY_RUNNING', 'An engine is running this debate');
        throw new AppError('DEBATE_NOT_FAILED', 'Only a failed debate can be retried');
      }
      if (debate.funding_source === 'byok' && !providerKeys) {
        throw new AppError('VALIDATION_ERROR', 'Retrying a BYOK debate needs X-Provider-Keys again', {
          details: [
            { path: 'X-Provider-Keys', message: 'required for a BYOK debate', code: 'missing_header' },
          ],
        });
      }
      await assertConcurrentRoom(run, userId, config.debates.concurrentLimit);
      if (debate.funding_source === 'user_credits') {
        const [net] = await run<{ charged: number }>(
          `select coalesce(-sum(delta), 0)::int as charged from credit_ledger where debate_id = ?`,
          [id],
        );
        const credits = MODE_CREDITS[debate.mode];
        if (Number(net?.charged ?? 0) < credits) {
          chooseFunding({
            plan: owner.plan === 'free' ? 'starter' : owner.plan, // no free-tier fallback for a paid debate
            balance: Number(owner.credit_balance),
            credits,
            hasProviderKeys: false,
            freeUsedThisMonth: 0,
            freeMonthly: 0,
            route: 'api',
            upgradeUrl: `${config.appUrl}/pricing`,
          });
          await debitCredits(run, {
            ownerId: userId,
            credits,
            debateId: id,
            note: 'retry',
            at: new Date(clock.now()),
          });
        }
      }
      await run('delete from debate_events where debate_id = ?', [id]);
      await run('delete from debate_turns where debate_id = ?', [id]);
      await run('delete from debate_snapshots where debate_id = ?', [id]);
      const [updated] = await run<{ attempt: number }>(
        `update debates set status = 'pending', attempt = attempt + 1, verdict = null, cost = null,
           agent_count = null, round_count = null, agents_used = null, failure_code = null,
           failure_message = null, started_at = null, completed_at = null,
           lease_owner = null, lease_expires_at = null, requeued_at = null, interruptions = 0
         where id = ? returning attempt`,
        [id],
      );
      return { attempt: Number(updated?.attempt) };
    });
    await dispatch(bus, { debateId: id, attempt: result.attempt }, providerKeys, onQueueError);
    return result;
  };
}
