import { debateCredits } from '@verdict/contracts';
import { chargedFor } from '../../billing/ledger.ts';
import { query } from '../../db/kysely.ts';
import { AppError, notFound } from '../../shared/app-error.ts';
import { resetForRetry } from '../debate-record.ts';
import type { ByokKeys } from '../provider-keys-header.ts';
import type { DebateTables } from '../tables.ts';
import { dispatch } from './dispatch.ts';
import { assertConcurrentRoom, fund, payerFor } from './funding.ts';
import type { CreationResources } from './resources.ts';

/**
 * POST /api/debates/:id/retry: a failed debate starts over as a new attempt with the same question and
 * mode; its previous events, turns and snapshot are cleared. A charge refunded on the failure is taken
 * again, by the same rules as a create but never from the free tier; BYOK debates need their
 * X-Provider-Keys again, as they were never stored.
 */
export function createDebateRetry(resources: CreationResources) {
  const { db, bus, clock } = resources;

  return async (userId: string, id: string, providerKeys: ByokKeys | null): Promise<{ attempt: number }> => {
    const restarted = await db.em().transactional(async (em) => {
      const now = new Date(clock.now());
      const k = query<DebateTables>(em);
      // A workspace debate is paid for by the workspace's owner, by the rules of a create: the caller
      // must still be a member who may write there, and the owner's plan must still have workspaces.
      const place = await k
        .selectFrom('debates')
        .select('workspace_id')
        .where('id', '=', id)
        .where('owner_id', '=', userId)
        .executeTakeFirst();
      const { payer } = await payerFor(resources, em, { ownerId: userId, workspaceId: place?.workspace_id });
      const debate = await k
        .selectFrom('debates')
        .select([
          'status',
          'mode',
          'funding_source',
          'attempt',
          'requested_agents',
          'requested_rounds',
          'compare_options',
        ])
        .where('id', '=', id)
        .where('owner_id', '=', userId)
        .where('deleted_at', 'is', null)
        .forNoKeyUpdate()
        .executeTakeFirst();
      if (!debate) throw notFound('Debate');
      // Refused below, once the locks are released: asking the engines waits on the network.
      if (debate.status !== 'failed') return null;
      if (debate.funding_source === 'byok' && !providerKeys) {
        throw new AppError('VALIDATION_ERROR', 'Retrying a BYOK debate needs X-Provider-Keys again', {
          details: [
            { path: 'X-Provider-Keys', message: 'required for a BYOK debate', code: 'missing_header' },
          ],
        });
      }
      // The price of the debate as it was created: its mode, panel and whether it compares options.
      const credits = debateCredits({
        mode: debate.mode,
        agents: debate.requested_agents,
        rounds: debate.requested_rounds,
        compare: debate.compare_options !== null,
      });
      // Who pays now may differ from the first attempt (the debate moved into or out of a workspace):
      // the attempt runs as the payer's plan funds it.
      let fundingSource = debate.funding_source;
      if (debate.funding_source === 'user_credits' && (await chargedFor(em, id)) < credits) {
        fundingSource = await fund(
          resources,
          em,
          { ownerId: userId, payer, credits, route: 'api', hasProviderKeys: providerKeys !== null },
          { debateId: id, note: 'retry', at: now, freeTier: false },
        );
      } else {
        await assertConcurrentRoom(resources, em, userId);
      }
      return resetForRetry(em, id, fundingSource);
    });
    if (restarted === null) {
      if ((await bus.commands.send(id, { type: 'inspect' }, 1000)) !== 'no_engine')
        throw new AppError('DEBATE_ALREADY_RUNNING', 'An engine is running this debate');
      throw new AppError('DEBATE_NOT_FAILED', 'Only a failed debate can be retried');
    }
    await dispatch(resources, { debateId: id, attempt: restarted }, providerKeys);
    return { attempt: restarted };
  };
}
