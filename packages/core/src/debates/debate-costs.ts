import type { DebateCallCost, DebateCostBreakdown, ModelCostTotal } from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import { usdOfNano } from '../routing/prices.ts';
import { PROVIDERS } from '../routing/providers.ts';
import { notFound } from '../shared/app-error.ts';
import type { DebateReportResources } from './debate-resources.ts';
import type { DebateTables } from './tables.ts';

type Row = Omit<DebateCallCost, 'costUsd'> & { nano: number | null };

/**
 * GET /api/debates/:id/cost: every priced call of the debate's current attempt — its turns (debate_turns) and
 * its judge and classifier calls (debate_calls, stored with the final state) — with totals per model. Costs
 * are summed in whole nanodollars, so `totalUsd` is exactly the debate's `cost.estimatedUsd` once it is
 * finished (the engine counts the same calls the same way). Readable by whoever is shown the debate's cost
 * (debate-access.ts, disclosureTo): its creator and workspace, and the readers of a public debate whose owner
 * shows the cost on its share link; anyone else finds nothing, as with the owner's other reads.
 */
export function createDebateCosts({ db, access }: DebateReportResources) {
  return async (userId: string, id: string): Promise<DebateCostBreakdown> => {
    const { debate, shows } = await access.shown(userId, id);
    if (!shows.cost) throw notFound('Debate');
    const k = query<DebateTables>(db.em());
    const [turns, others] = await Promise.all([
      k
        .selectFrom('debate_turns')
        .select(['round', 'agent', 'model', 'input_tokens', 'output_tokens', 'cost_nano_usd'])
        .where('debate_id', '=', id)
        .where('attempt', '=', debate.attempt)
        .orderBy('round')
        .orderBy('created_at')
        .orderBy('agent')
        .execute(),
      k
        .selectFrom('debate_calls')
        .select(['seq', 'kind', 'model', 'input_tokens', 'output_tokens', 'cost_nano_usd'])
        .where('debate_id', '=', id)
        .where('attempt', '=', debate.attempt)
        .orderBy('seq')
        .execute(),
    ]);
    let judgeAttempt = 0;
    const rows: Row[] = [
      ...turns.map((t) => ({
        kind: 'turn' as const,
        round: t.round,
        agent: t.agent,
        model: t.model,
        inputTokens: t.input_tokens,
        outputTokens: t.output_tokens,
        nano: t.cost_nano_usd === null ? null : Number(t.cost_nano_usd),
      })),
      ...others.map((c) => ({
        kind: c.kind,
        round: c.kind === 'judge' ? ++judgeAttempt : null,
        agent: null,
        model: c.model,
        inputTokens: c.input_tokens,
        outputTokens: c.output_tokens,
        nano: Number(c.cost_nano_usd),
      })),
    ];
    const totalNano = rows.reduce((sum, row) => sum + (row.nano ?? 0), 0);
    return {
      debateId: debate.id,
      attempt: debate.attempt,
      status: debate.status,
      calls: rows.map(({ nano, ...row }) => ({ ...row, costUsd: nano === null ? null : usdOfNano(nano) })),
      byModel: totalsByModel(rows),
      inputTokens: rows.reduce((sum, row) => sum + row.inputTokens, 0),
      outputTokens: rows.reduce((sum, row) => sum + row.outputTokens, 0),
      totalUsd: usdOfNano(totalNano),
      credits: debate.cost?.credits ?? null,
    };
  };
}

function totalsByModel(rows: Row[]): ModelCostTotal[] {
  const totals = new Map<string, ModelCostTotal & { nano: number }>();
  for (const row of rows) {
    const total = totals.get(row.model) ?? {
      provider: providerOf(row.model),
      model: row.model,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      nano: 0,
    };
    total.calls += 1;
    total.inputTokens += row.inputTokens;
    total.outputTokens += row.outputTokens;
    total.nano += row.nano ?? 0;
    totals.set(row.model, total);
  }
  return [...totals.values()].map(({ nano, ...total }) => ({ ...total, costUsd: usdOfNano(nano) }));
}

/** The provider of a recorded "provider:model" id; the simulated model's names say "simulated/…". */
function providerOf(model: string): string {
  const prefix = model.slice(0, Math.max(0, model.indexOf(':')));
  if ((PROVIDERS as readonly string[]).includes(prefix)) return prefix;
  return model.startsWith('simulated/') ? 'simulated' : 'unknown';
}
