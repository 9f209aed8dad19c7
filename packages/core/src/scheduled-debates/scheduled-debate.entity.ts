import { defineEntity, p } from '@mikro-orm/core';
import type { DebateMode, ErrorCode, ScheduleFrequency } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';

/**
 * A debate its owner wants asked again daily, weekly or monthly. The scheduler (engine workers) claims a due
 * one (`active` and `next_run_at` passed) with `skip locked`, creates its debate and moves `next_run_at` on
 * in one transaction, so each due run makes one debate whichever node takes it.
 */
export const ScheduledDebateSchema = defineEntity({
  name: 'ScheduledDebate',
  tableName: 'scheduled_debates',
  indexes: [
    { name: 'scheduled_debates_user_created_index', properties: ['user', 'createdAt'] },
    // Partial: the scheduler's claim reads only active schedules, soonest first.
    {
      name: 'scheduled_debates_due_index',
      expression: `create index "scheduled_debates_due_index" on "scheduled_debates" ("next_run_at") where "active" = true`,
    },
  ],
  checks: [
    { name: 'scheduled_debates_frequency_check', expression: `frequency in ('daily', 'weekly', 'monthly')` },
    { name: 'scheduled_debates_day_of_week_check', expression: 'day_of_week >= 0 and day_of_week <= 6' },
    { name: 'scheduled_debates_day_of_month_check', expression: 'day_of_month >= 1 and day_of_month <= 31' },
    { name: 'scheduled_debates_max_runs_check', expression: 'max_runs >= 1 and max_runs <= 1000' },
    { name: 'scheduled_debates_run_count_check', expression: 'run_count >= 0' },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    question: p.string().length(500),
    /** null: the default mode (fast). */
    mode: p.string().length(20).$type<DebateMode>().nullable(),
    context: p.string().length(2000).nullable(),
    frequency: p.string().length(10).$type<ScheduleFrequency>(),
    dayOfWeek: p.integer().nullable(),
    dayOfMonth: p.integer().nullable(),
    /** HH:MM, UTC. */
    timeOfDay: p.string().length(5),
    /** IANA name, shown back; all computation is UTC. */
    timezone: p.string().length(64),
    active: p.boolean().default(true),
    maxRuns: p.integer().nullable(),
    runCount: p.integer().default(0),
    nextRunAt: p.datetime(),
    lastRunAt: p.datetime().nullable(),
    /** The latest due run that created no debate: the refusal's code and message, and when. */
    lastFailureCode: p.string().length(50).$type<ErrorCode>().nullable(),
    lastFailureMessage: p.text().nullable(),
    lastFailureAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    /** Moves with the owner's changes (POST, PATCH), not with the scheduler's runs. */
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class ScheduledDebate extends ScheduledDebateSchema.class {}
ScheduledDebateSchema.setClass(ScheduledDebate);
