import { defineEntity, p } from '@mikro-orm/core';
import type { DebateEventType } from '@verdict/contracts';
import { Debate } from './debate.entity.ts';

/**
 * The durable log of a debate's stream, partitioned by `debateCreatedAt` (its debate's creation time, the
 * same on every event of a debate: migration 0040); (debate, attempt, seq) is unique in each partition, and a
 * debate's events share one, so a re-written event is a no-op.
 */
export const DebateEventRowSchema = defineEntity({
  name: 'DebateEventRow',
  tableName: 'debate_events',
  properties: {
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade'),
    attempt: p.integer().primary(),
    seq: p.integer().primary(),
    type: p.string().length(50).$type<DebateEventType>(),
    data: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().defaultRaw('now()'),
    debateCreatedAt: p.datetime().defaultRaw("'-infinity'"),
  },
});

export class DebateEventRow extends DebateEventRowSchema.class {}
DebateEventRowSchema.setClass(DebateEventRow);
