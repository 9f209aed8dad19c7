import type { DebateAnalytics } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { ReadDatabase } from '../replica/open-replica.ts';
import { readAs } from '../replica/read-as.ts';
import type { DebateReportResources } from './debate-resources.ts';
import type { DebateTables } from './tables.ts';

/** Two decimals; null stays null (no completed debates to average). */
const rounded = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/** Per-debate analytics for its owner, next to the owner's averages over completed debates. */
export function createDebateAnalytics(resources: DebateReportResources) {
  const { access } = resources;
  return async (userId: string, id: string): Promise<DebateAnalytics> => {
    // Who may see it, which attempt and its turns, on the primary: the engine's writes are not the caller's,
    // so a replica could show a debate the primary calls completed without its last turns. The owner's
    // averages (a scan of their history) where read routing sends them.
    const debate = await access.owned(userId, id);
    const [agents, averages] = await Promise.all([
      turnsByAgent(resources.db, id, debate.attempt),
      readAs(resources, userId, (db) => ownerAverages(db, userId)),
    ]);
    const durationMs =
      debate.startedAt && debate.completedAt
        ? debate.completedAt.getTime() - debate.startedAt.getTime()
        : null;
    return {
      debateId: id,
      status: debate.status,
      durationMs,
      rounds: debate.roundCount ?? null,
      agents: agents.map((a) => ({
        agent: a.agent,
        model: a.model,
        turns: a.turns,
        inputTokens: a.input_tokens,
        outputTokens: a.output_tokens,
      })),
      cost: debate.cost ?? null,
      averages: {
        debates: averages.n,
        durationMs: rounded(averages.duration_ms),
        rounds: rounded(averages.rounds),
        inputTokens: rounded(averages.input_tokens),
        outputTokens: rounded(averages.output_tokens),
      },
    };
  };
}

/** The turns of the debate's attempt by agent. */
const turnsByAgent = (db: ReadDatabase, id: string, attempt: number) =>
  query<DebateTables>(db.em())
    .selectFrom('debate_turns')
    .select([
      'agent',
      sql<string>`min(model)`.as('model'),
      sql<number>`count(*)::int`.as('turns'),
      sql<number>`sum(input_tokens)::int`.as('input_tokens'),
      sql<number>`sum(output_tokens)::int`.as('output_tokens'),
    ])
    .where('debate_id', '=', id)
    .where('attempt', '=', attempt)
    .groupBy('agent')
    .orderBy('agent')
    .execute();

/** The owner's averages over completed debates. float8, not numeric: the driver reads numeric as text. */
const ownerAverages = (db: ReadDatabase, userId: string) =>
  query<DebateTables>(db.em())
    .selectFrom('debates')
    .select([
      sql<number>`count(*)::int`.as('n'),
      sql<number | null>`avg(extract(epoch from (completed_at - started_at)) * 1000)::float8`.as(
        'duration_ms',
      ),
      sql<number | null>`avg(round_count)::float8`.as('rounds'),
      sql<number | null>`avg((cost->>'inputTokens')::float8)`.as('input_tokens'),
      sql<number | null>`avg((cost->>'outputTokens')::float8)`.as('output_tokens'),
    ])
    .where('owner_id', '=', userId)
    .where('status', '=', 'completed')
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
