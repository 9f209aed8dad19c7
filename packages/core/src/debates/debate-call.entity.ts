import { defineEntity, p } from '@mikro-orm/core';
import { Debate } from './debate.entity.ts';

/**
 * One LLM call of a debate's attempt that is not a turn: the judge's (each attempt at a verdict) and the
 * classifier's. Written with the attempt's final state, so the calls here are the ones its cost counts.
 */
export const DebateCallSchema = defineEntity({
  name: 'DebateCall',
  tableName: 'debate_calls',
  indexes: [
    {
      // A model's recent judge and classifier calls, which a cost estimate learns their lengths from.
      name: 'debate_calls_model_recent_index',
      expression: `create index "debate_calls_model_recent_index" on "debate_calls" ("model", "kind", "created_at" desc)`,
    },
  ],
  properties: {
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade'),
    attempt: p.integer().primary(),
    /** Order within the attempt. */
    seq: p.integer().primary(),
    kind: p.string().length(20).$type<'judge' | 'classifier'>(),
    model: p.string().length(200),
    inputTokens: p.integer(),
    outputTokens: p.integer(),
    /** At list price, in whole nanodollars (10⁻⁹ USD). */
    costNanoUsd: p.bigint('number'),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class DebateCall extends DebateCallSchema.class {}
DebateCallSchema.setClass(DebateCall);
