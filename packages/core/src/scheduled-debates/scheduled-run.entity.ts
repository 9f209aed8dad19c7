import { defineEntity, p } from '@mikro-orm/core';
import { Debate } from '../debates/debate.entity.ts';
import { ScheduledDebate } from './scheduled-debate.entity.ts';

/**
 * A debate a schedule created, and the due run it was created for. One row per due run (the unique key),
 * written in the transaction that creates the debate and moves the schedule on: a second debate for the
 * same run could not commit. Deleting the schedule deletes these links only; its debates stay.
 */
export const ScheduledRunSchema = defineEntity({
  name: 'ScheduledRun',
  tableName: 'scheduled_runs',
  uniques: [{ name: 'scheduled_runs_schedule_id_run_at_unique', properties: ['schedule', 'runAt'] }],
  properties: {
    // Keys that are only foreign keys get `on update cascade` by default; ids never change.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action'),
    schedule: () => p.manyToOne(ScheduledDebate).deleteRule('cascade'),
    /** The next_run_at that was due. */
    runAt: p.datetime(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class ScheduledRun extends ScheduledRunSchema.class {}
ScheduledRunSchema.setClass(ScheduledRun);
