import type { EntityManager } from '@mikro-orm/core';
import { claimIdOf } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { DebateTables } from '../debates/tables.ts';
import { buildArgumentGraph } from '../reactions/argument-graph.ts';
import type { CoreResources } from '../resources.ts';
import { passagesByNumber, readCorpus } from './corpus.ts';
import { type CitingTurn, passageBearings } from './passage-bearings.ts';

/** What the evidence reads run on: who may read a debate, and which plans include the evidence engine. */
export type EvidenceReadResources = Pick<CoreResources, 'db'> & {
  debateAccess: Pick<DebateAccess, 'visible'>;
  plans: PlanGates;
};

/** Typed queries on the debates and their owners' accounts, on `em`. */
export const evidenceQuery = (em: EntityManager) => query<DebateTables & AccountTables>(em);

/** The current attempt's turns as claims, with their citations and the edges between them. */
const citingTurnsOf = async (db: Database, debateId: string, attempt: number) => {
  const rows = await evidenceQuery(db.em())
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

/** The debate's passages (all, or only the cited ones) with what each turn says of them. */
export const evidenceOf = async (db: Database, debateId: string, attempt: number, onlyCited: boolean) => {
  const citing = citingTurnsOf(db, debateId, attempt);
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
