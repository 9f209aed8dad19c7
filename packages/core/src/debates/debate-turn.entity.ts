import { defineEntity, p } from '@mikro-orm/core';
import type { Citation, TurnPosition } from '@verdict/contracts';
import { Debate } from './debate.entity.ts';

/**
 * One finished agent turn. The key (debate, attempt, round, agent) is the turn's idempotency key: a turn
 * that was stored is never requested from a provider again.
 */
export const DebateTurnSchema = defineEntity({
  name: 'DebateTurn',
  tableName: 'debate_turns',
  indexes: [
    {
      // A model's recent openings and rebuttals, which a cost estimate learns their lengths from.
      name: 'debate_turns_model_recent_index',
      expression: `create index "debate_turns_model_recent_index" on "debate_turns" ("model", ("round" > 1), "created_at" desc)`,
    },
  ],
  properties: {
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade'),
    attempt: p.integer().primary(),
    round: p.integer().primary(),
    agent: p.string().length(100).primary(),
    content: p.text(),
    model: p.string().length(200),
    targetAgent: p.string().length(100).nullable(),
    inputTokens: p.integer(),
    outputTokens: p.integer(),
    /** At list price, in whole nanodollars (10⁻⁹ USD); null for turns stored before costs were recorded. */
    costNanoUsd: p.bigint('number').nullable(),
    /** The position the turn stated (its `POSITION:` line, read by the engine); null when it stated none. */
    position: p.json<TurnPosition>().nullable(),
    /** The passages it cited, as the engine checked them on storing it; null without the evidence engine. */
    citations: p.json<Citation[]>().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class DebateTurn extends DebateTurnSchema.class {}
DebateTurnSchema.setClass(DebateTurn);
