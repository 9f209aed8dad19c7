import { defineEntity, p } from '@mikro-orm/core';
import type { PollOption } from '@verdict/contracts';
import { Debate } from '../debates/debate.entity.ts';

/**
 * An audience poll its debate's owner put to readers. Its options never change after creation, so votes
 * name them by id. Open while `closedAt` is null: closing is the only change a poll has, and its status is
 * read from that one column so the two can never disagree.
 */
export const PollSchema = defineEntity({
  name: 'Poll',
  tableName: 'polls',
  indexes: [{ name: 'polls_debate_created_index', properties: ['debate', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    debate: () => p.manyToOne(Debate).deleteRule('cascade'),
    question: p.string().length(200),
    options: p.json<PollOption[]>(),
    createdAt: p.datetime().defaultRaw('now()'),
    closedAt: p.datetime().nullable(),
  },
});

export class Poll extends PollSchema.class {}
PollSchema.setClass(Poll);
