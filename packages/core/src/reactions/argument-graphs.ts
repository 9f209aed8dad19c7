import type { ArgumentGraph } from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CoreResources } from '../resources.ts';
import { buildArgumentGraph, type SpokenClaim, type VoteCounts } from './argument-graph.ts';
import type { ReactionTables } from './tables.ts';

type Tables = ReactionTables & DebateTables & AccountTables;

/** What the argument graph runs on: who may read a debate, and which plans include the graph. */
export type ArgumentGraphResources = Pick<CoreResources, 'db'> & {
  debateAccess: Pick<DebateAccess, 'visible'>;
  plans: PlanGates;
};

/** The stored payload of an argument or rebuttal event (contracts' DebateEventData). */
type ClaimEventData = {
  claimId: string;
  agent: string;
  round: number;
  content: string;
  targetAgent?: string;
};

/**
 * GET /api/debates/:id/argument-graph: a debate's claims, the edges between them and the votes on each.
 * Whoever may read the debate may ask (anyone else: NOT_FOUND, as every read of one debate), on a plan
 * with the argument graph heatmap — the caller's plan, not the debate owner's: it is a way of reading, and
 * the one told to upgrade (402 BYOK_REQUIRED with requiredPlan and upgradeUrl) is the one who can.
 */
export function createArgumentGraphs({ db, debateAccess, plans }: ArgumentGraphResources) {
  const k = () => query<Tables>(db.em());

  return {
    read: async (userId: string, debateId: string): Promise<ArgumentGraph> => {
      const debate = await debateAccess.visible(userId, debateId);
      const user = await k().selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
      plans.assertIncludes(user?.plan ?? 'free', 'argumentGraph');
      const [events, tallies] = await Promise.all([
        k()
          .selectFrom('debate_event_log')
          .select(['type', 'data'])
          .where('debate_id', '=', debateId)
          .where('attempt', '=', debate.attempt)
          .where('type', 'in', ['argument', 'rebuttal'])
          .orderBy('seq')
          .execute(),
        k()
          .selectFrom('argument_votes')
          .select([
            'claim_id',
            sql<number>`count(*) filter (where vote = 'agree')::int`.as('agree'),
            sql<number>`count(*) filter (where vote = 'disagree')::int`.as('disagree'),
          ])
          .where('debate_id', '=', debateId)
          .groupBy('claim_id')
          .execute(),
      ]);
      const spoken = events.map(({ type, data }): SpokenClaim => {
        const claim = data as ClaimEventData;
        return {
          claimId: claim.claimId,
          agent: claim.agent,
          round: claim.round,
          kind: type === 'rebuttal' ? 'rebuttal' : 'argument',
          targetAgent: claim.targetAgent ?? null,
          content: claim.content,
        };
      });
      const votes: Record<string, VoteCounts> = Object.fromEntries(
        tallies.map((row) => [row.claim_id, { agree: row.agree, disagree: row.disagree }]),
      );
      return {
        debateId,
        status: debate.status,
        attempt: debate.attempt,
        ...buildArgumentGraph(spoken, votes),
      };
    },
  };
}

export type ArgumentGraphs = ReturnType<typeof createArgumentGraphs>;
