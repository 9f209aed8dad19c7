import { defineEntity, p } from '@mikro-orm/core';
import type { DebateDomain, OutcomeState } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import { Debate } from '../debates/debate.entity.ts';

/**
 * What became of a completed debate's decision, as its owner says: created pending in the transaction that
 * stores the debate's verdict, with the verdict's confidence and the debate's domain copied in, so scores
 * read this table alone.
 */
export const OutcomeSchema = defineEntity({
  name: 'Outcome',
  tableName: 'outcomes',
  indexes: [
    { name: 'outcomes_owner_status_index', properties: ['owner', 'status'] },
    // Partial (migration 0041): the resolved outcomes' history, newest first (outcomes/outcome-history.ts).
    {
      name: 'outcomes_owner_resolved_index',
      expression: `create index "outcomes_owner_resolved_index" on "outcomes" ("owner_id", "recorded_at", "debate_id") where "status" in ('correct', 'partially_correct', 'wrong')`,
    },
  ],
  checks: [
    {
      name: 'outcomes_status_check',
      expression: `status in ('pending', 'correct', 'partially_correct', 'wrong', 'too_early', 'skipped')`,
    },
    {
      name: 'outcomes_satisfaction_score_check',
      expression: 'satisfaction_score >= 1 and satisfaction_score <= 5',
    },
  ],
  properties: {
    // A key that is only a foreign key gets `on update cascade` by default; ids never change.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action'),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    status: p.string().length(20).$type<OutcomeState>().default('pending'),
    confidence: p.double().$type<number>(),
    recommendation: p.string().length(30),
    domain: p.string().length(20).$type<DebateDomain>(),
    notes: p.text().nullable(),
    satisfactionScore: p.integer().nullable(),
    reminderAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    recordedAt: p.datetime().nullable(),
  },
});

export class Outcome extends OutcomeSchema.class {}
OutcomeSchema.setClass(Outcome);
