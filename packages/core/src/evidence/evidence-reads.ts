import { claimIdOf, type DebateEvidence, type EvidencePassage } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { DebateTables } from '../debates/tables.ts';
import { buildArgumentGraph } from '../reactions/argument-graph.ts';
import { passagesByNumber, readCorpus } from './corpus.ts';
import { type CitingTurn, passageBearings } from './passage-bearings.ts';

type Tables = DebateTables & AccountTables;

/**
 * The evidence reads: GET /api/debates/:id/evidence and /v1/verdicts/:id/evidence (whoever may read the
 * debate, on a plan with the evidence engine — the caller's plan, as the argument graph's gate decides:
 * the one told to upgrade is the one who can), and the cited passages a share link reveals.
 */
export function createEvidenceReads(
  db: Database,
  debateAccess: Pick<DebateAccess, 'visible'>,
  plans: PlanGates,
) {
  const k = () => query<Tables>(db.em());

  /** The current attempt's turns as claims, with their citations and the edges between them. */
  const citingTurnsOf = async (debateId: string, attempt: number) => {
    const rows = await k()
      .selectFrom('debate_turns')
      .select(['agent', 'round', 'content', 'target_agent', 'citations'])
      .where('debate_id', '=', debateId)
      .where('attempt', '=', attempt)
      .orderBy('round')
      .orderBy('created_at')
      .orderBy('agent')
      .execute();
    const turns: CitingTurn[] = rows.map((row) => ({
      claimId: claimIdOf({ attempt, round: row.round, agent: row.agent }),
      agent: row.agent,
      round: row.round,
      citations: row.citations ?? [],
    }));
    const { edges } = buildArgumentGraph(
      rows.map((row, i) => ({
        claimId: turns[i]?.claimId ?? '',
        agent: row.agent,
        round: row.round,
        kind: row.target_agent ? 'rebuttal' : 'argument',
        targetAgent: row.target_agent ?? null,
        content: row.content,
      })),
      {},
    );
    return { turns, edges };
  };

  const evidenceOf = async (debateId: string, attempt: number, onlyCited: boolean) => {
    const citing = citingTurnsOf(debateId, attempt);
    // A share read lists only the cited passages, so it reads only those, by number, not the whole corpus.
    const listed = onlyCited
      ? await citing.then(({ turns }) => {
          const cited = new Set(
            turns.flatMap((turn) => turn.citations.map((c) => Number(c.evidenceId.slice(1)))),
          );
          return cited.size > 0 ? passagesByNumber(db, debateId, [...cited]) : [];
        })
      : await readCorpus(db, debateId);
    const { turns, edges } = await citing;
    return passageBearings(
      listed.map(({ evidenceId, source, text, start, end }) => ({ evidenceId, source, text, start, end })),
      turns,
      edges,
    );
  };

  return {
    read: async (userId: string, debateId: string): Promise<DebateEvidence> => {
      const debate = await debateAccess.visible(userId, debateId);
      const user = await k().selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
      plans.assertIncludes(user?.plan ?? 'free', 'evidence');
      const on = debate.evidenceEngine;
      return {
        debateId,
        status: debate.status,
        attempt: debate.attempt,
        evidence: on ? 'on' : 'off',
        passages: on ? await evidenceOf(debateId, debate.attempt, false) : [],
      };
    },

    /**
     * The passages a shared debate's transcript cites, for its share page: a link shows what the
     * transcript rests on, never the rest of the owner's documents.
     */
    cited: (debateId: string, attempt: number): Promise<EvidencePassage[]> =>
      evidenceOf(debateId, attempt, true),
  };
}

export type EvidenceReads = ReturnType<typeof createEvidenceReads>;
