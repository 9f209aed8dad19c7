import type { EntityManager } from '@mikro-orm/core';
import type { Chain, ChainDebateSummary, ChainNode, ChainRelationship, Verdict } from '@verdict/contracts';
import { type ExpressionBuilder, sql } from 'kysely';
import { query } from '../db/kysely.ts';
import { DEBATE_SUMMARY_COLUMNS, toDebateSummary } from '../debates/debate-summary.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { ChainTables } from './tables.ts';

type Tables = ChainTables & DebateTables;

export type ChainRow = {
  id: string;
  user_id: string;
  name: string;
  root_debate_id: string;
  created_at: string;
  updated_at: string;
  debate_count: number | null;
};

/** The columns of a chain as read, its number of debates included. */
export const chainColumns = (eb: ExpressionBuilder<Tables, 'decision_chains'>) =>
  [
    'decision_chains.id',
    'decision_chains.user_id',
    'decision_chains.name',
    'decision_chains.root_debate_id',
    'decision_chains.created_at',
    'decision_chains.updated_at',
    eb
      .selectFrom('chain_nodes')
      .select(sql<number>`count(*)::int`.as('n'))
      .whereRef('chain_nodes.chain_id', '=', 'decision_chains.id')
      .as('debate_count'),
  ] as const;

export const toChain = (row: ChainRow): Chain => ({
  id: row.id,
  name: row.name,
  userId: row.user_id,
  rootDebateId: row.root_debate_id,
  debateCount: row.debate_count ?? 0,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** The caller's chain, or undefined: someone else's chain reads as missing. */
export const findOwnChain = (em: EntityManager, userId: string, chainId: string) =>
  query<Tables>(em)
    .selectFrom('decision_chains')
    .select(chainColumns)
    .where('decision_chains.id', '=', chainId)
    .where('decision_chains.user_id', '=', userId)
    .executeTakeFirst();

/** A node as stored, with what the chain shows of its debate (`deleted` when the debate was soft-deleted). */
export type StoredNode = {
  debateId: string;
  parentDebateId: string | null;
  relationship: ChainRelationship | null;
  addedAt: string;
  deleted: boolean;
  debate: ChainDebateSummary;
};

/** The nodes of a chain in the order they were added, the root first. */
export async function readStoredNodes(em: EntityManager, chainId: string): Promise<StoredNode[]> {
  const rows = await query<Tables>(em)
    .selectFrom('chain_nodes as n')
    .innerJoin('debates as d', 'd.id', 'n.debate_id')
    .select([
      'n.debate_id',
      'n.parent_debate_id',
      'n.relationship',
      'n.added_at',
      ...DEBATE_SUMMARY_COLUMNS,
      'd.verdict',
      'd.deleted_at',
    ])
    .where('n.chain_id', '=', chainId)
    .orderBy('n.position')
    .execute();
  return rows.map((row) => {
    // A verdict counts once the debate completed (a retried debate may hold an earlier attempt's).
    const verdict = row.summary_status === 'completed' ? (row.verdict as Verdict | null) : null;
    return {
      debateId: row.debate_id,
      parentDebateId: row.parent_debate_id ?? null,
      relationship: row.relationship ?? null,
      addedAt: new Date(row.added_at).toISOString(),
      deleted: row.deleted_at !== null && row.deleted_at !== undefined,
      debate: {
        ...toDebateSummary(row),
        recommendation: verdict?.recommendation ?? null,
        confidence: verdict?.confidence ?? null,
        oneLiner: verdict?.oneLiner ?? null,
      },
    };
  });
}

/**
 * The nodes as the API shows them: numbered 0 to n-1 in the order added, each with its depth and its
 * children. A parent is always added before its children (and a trigger re-hangs children on an earlier
 * ancestor only), so one pass in order finds every depth. A soft-deleted debate keeps its place with
 * `debate: null`, so its children still hang from it.
 */
export function toChainNodes(stored: StoredNode[]): ChainNode[] {
  const depthOf = new Map<string, number>();
  const childrenOf = new Map<string, string[]>();
  for (const node of stored) {
    const parentDepth = node.parentDebateId === null ? -1 : (depthOf.get(node.parentDebateId) ?? -1);
    depthOf.set(node.debateId, parentDepth + 1);
    childrenOf.set(node.debateId, []);
    if (node.parentDebateId !== null) childrenOf.get(node.parentDebateId)?.push(node.debateId);
  }
  return stored.map((node, order) => ({
    debateId: node.debateId,
    parentDebateId: node.parentDebateId,
    relationship: node.relationship,
    order,
    depth: depthOf.get(node.debateId) ?? 0,
    childDebateIds: childrenOf.get(node.debateId) ?? [],
    addedAt: node.addedAt,
    debate: node.deleted ? null : node.debate,
  }));
}
