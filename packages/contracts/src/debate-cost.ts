import { z } from 'zod';
import { FundingSource } from './debate-resource.ts';
import { DebateMode } from './debates.ts';

/**
 * One figure of an estimate (ARCHITECTURE.md, "Cost before and after"): expected, and the stated interval
 * low–high around it.
 */
export const EstimateRange = z
  .object({
    low: z.number().min(0).meta({
      description:
        'Every answer at the 10th percentile of the lengths its model answered this task with recently',
    }),
    expected: z.number().min(0).meta({ description: 'Every answer at its average recent length' }),
    high: z.number().min(0).meta({ description: 'Every answer at the 90th percentile of those lengths' }),
  })
  .meta({
    id: 'EstimateRange',
    description:
      'Prompts sized as the engine builds them; answers at the output lengths learnt from the last 200 calls ' +
      'of each model and task on this installation (20 at least; before, a default table whose interval ' +
      'spans a sentence to the limit). low–high is the 10th–90th percentile interval of those lengths.',
  });
export type EstimateRange = z.infer<typeof EstimateRange>;

/** What one model of the debate is expected to take and cost. */
export const ModelEstimate = z
  .object({
    provider: z.string().meta({ description: 'The provider (`simulated` for the simulated model)' }),
    model: z.string().meta({ description: '"provider:model", as the debate records it' }),
    roles: z.array(z.enum(['debater', 'judge', 'classifier'])),
    /** Calls it answers: every turn, one judge call (a retry, rare, is outside the interval), the classifier. */
    calls: EstimateRange,
    inputTokens: EstimateRange,
    outputTokens: EstimateRange,
    usd: EstimateRange,
    priced: z.boolean().meta({
      description:
        'False when the provider table has no price for it (simulated, self-hosted): it counts 0 USD',
    }),
  })
  .meta({ id: 'ModelEstimate' });
export type ModelEstimate = z.infer<typeof ModelEstimate>;

/** POST /api/debates/estimate and /v1/verdicts/estimate: what the create would charge and spend. */
export const DebateEstimate = z
  .object({
    mode: DebateMode,
    agents: z.number().int(),
    rounds: z.number().int(),
    /** Credits the debate costs on hosted keys (the mode's price). */
    credits: z.number().int().min(0),
    /** What the create would take from the balance now: 0 for the free tier, BYOK or a cached answer. */
    charge: z.number().int().min(0),
    fundingSource: FundingSource.nullable().meta({
      description: 'Who would pay; null when the create would be refused (see refusal)',
    }),
    refusal: z.object({ code: z.string(), message: z.string() }).nullable().meta({
      description: 'Why the create would be refused for funding now (credits, the monthly free debates)',
    }),
    cached: z.boolean().meta({
      description: 'An identical recent completed debate would answer the create: no new debate, no charge',
    }),
    simulated: z.boolean().meta({
      description: 'No provider is configured: the debate runs on the simulated model and costs 0 USD',
    }),
    models: z.array(ModelEstimate),
    inputTokens: EstimateRange,
    outputTokens: EstimateRange,
    usd: EstimateRange,
    note: z.string().meta({
      description:
        'How the figures are made: the stated interval (10th–90th percentile of the learnt output lengths), ' +
        'which model tasks were learnt and from how many calls, and when the debate is simulated',
    }),
  })
  .meta({ id: 'DebateEstimate' });
export type DebateEstimate = z.infer<typeof DebateEstimate>;

/** One priced LLM call of a debate's current attempt. */
export const DebateCallCost = z
  .object({
    kind: z.enum(['turn', 'judge', 'classifier']),
    /** Turns: their round and agent; the judge's calls: their attempt number as round, agent null. */
    round: z.number().int().nullable(),
    agent: z.string().nullable(),
    model: z.string(),
    inputTokens: z.number().int().min(0),
    outputTokens: z.number().int().min(0),
    costUsd: z.number().min(0).nullable().meta({
      description:
        'At list price, exact to the nanodollar; null for a turn stored before costs were recorded',
    }),
  })
  .meta({ id: 'DebateCallCost' });
export type DebateCallCost = z.infer<typeof DebateCallCost>;

export const ModelCostTotal = z
  .object({
    provider: z.string(),
    model: z.string(),
    calls: z.number().int().min(0),
    inputTokens: z.number().int().min(0),
    outputTokens: z.number().int().min(0),
    costUsd: z.number().min(0),
  })
  .meta({ id: 'ModelCostTotal' });
export type ModelCostTotal = z.infer<typeof ModelCostTotal>;

/** GET /api/debates/:id/cost: what each call of the debate's current attempt took and cost. */
export const DebateCostBreakdown = z
  .object({
    debateId: z.uuid(),
    attempt: z.number().int(),
    status: z.string(),
    calls: z.array(DebateCallCost),
    byModel: z.array(ModelCostTotal),
    inputTokens: z.number().int().min(0),
    outputTokens: z.number().int().min(0),
    totalUsd: z.number().min(0).meta({
      description: "The exact sum of the calls' costUsd: once finished, the debate's cost.estimatedUsd",
    }),
    credits: z
      .number()
      .int()
      .min(0)
      .nullable()
      .meta({ description: "The debate's cost.credits once finished" }),
  })
  .meta({ id: 'DebateCostBreakdown' });
export type DebateCostBreakdown = z.infer<typeof DebateCostBreakdown>;
