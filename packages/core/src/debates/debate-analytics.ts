import type { DebateAnalytics } from '@verdict/contracts';
import type { Database } from '../db/orm.ts';
import type { DebateReads } from './debate-reads.ts';

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** Per-debate analytics for its owner, next to the owner's averages over completed debates. */
export function createDebateAnalytics(db: Database, reads: DebateReads) {
  return async (userId: string, id: string): Promise<DebateAnalytics> => {
    const debate = await reads.owned(userId, id);
    const [agents, [averages]] = await Promise.all([
      db.execute<{
        agent: string;
        model: string;
        turns: number;
        input_tokens: number;
        output_tokens: number;
      }>(
        `select agent, min(model) as model, count(*)::int as turns,
                sum(input_tokens)::int as input_tokens, sum(output_tokens)::int as output_tokens
           from debate_turns where debate_id = ? and attempt = ? group by agent order by agent`,
        [id, debate.attempt],
      ),
      db.execute<{
        n: number;
        duration_ms: unknown;
        rounds: unknown;
        input_tokens: unknown;
        output_tokens: unknown;
      }>(
        `select count(*)::int as n,
                avg(extract(epoch from (completed_at - started_at)) * 1000) as duration_ms,
                avg(round_count) as rounds,
                avg((cost->>'inputTokens')::numeric) as input_tokens,
                avg((cost->>'outputTokens')::numeric) as output_tokens
           from debates where owner_id = ? and status = 'completed' and deleted_at is null`,
        [userId],
      ),
    ]);
    const durationMs =
      debate.startedAt && debate.completedAt
        ? debate.completedAt.getTime() - debate.startedAt.getTime()
        : null;
    const round = (value: unknown) => (num(value) === null ? null : Math.round(Number(value) * 100) / 100);
    return {
      debateId: id,
      status: debate.status,
      durationMs,
      rounds: debate.roundCount ?? null,
      agents: agents.map((a) => ({
        agent: a.agent,
        model: a.model,
        turns: Number(a.turns),
        inputTokens: Number(a.input_tokens),
        outputTokens: Number(a.output_tokens),
      })),
      cost: debate.cost ?? null,
      averages: {
        debates: Number(averages?.n ?? 0),
        durationMs: round(averages?.duration_ms),
        rounds: round(averages?.rounds),
        inputTokens: round(averages?.input_tokens),
        outputTokens: round(averages?.output_tokens),
      },
    };
  };
}
