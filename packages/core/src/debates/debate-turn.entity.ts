import { defineEntity, p } from '@mikro-orm/core';

/**
 * One finished agent turn. The key (debate, attempt, round, agent) is the turn's idempotency key: a turn
 * that was stored is never requested from a provider again.
 */
const DebateTurnSchema = defineEntity({
  name: 'DebateTurn',
  tableName: 'debate_turns',
  properties: {
    debateId: p.uuid().primary(),
    attempt: p.integer().primary(),
    round: p.integer().primary(),
    agent: p.string().length(100).primary(),
    content: p.text(),
    model: p.string().length(200),
    targetAgent: p.string().length(100).nullable(),
    inputTokens: p.integer(),
    outputTokens: p.integer(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class DebateTurn extends DebateTurnSchema.class {}
DebateTurnSchema.setClass(DebateTurn);
