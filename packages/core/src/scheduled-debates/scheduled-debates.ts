import type { EntityManager } from '@mikro-orm/core';
import {
  type CreateScheduledDebateInput,
  missingScheduleDay,
  PLANS,
  SCHEDULES_PER_USER_MAX,
  type ScheduledDebate,
  type ScheduledDebateListQuery,
  type ScheduledDebatePage,
  type UpdateScheduledDebateInput,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { offsetOf, pageOf } from '../shared/paging.ts';
import { nextRunAfter, type ScheduleTiming } from './next-run.ts';
import { SCHEDULE_COLUMNS, type ScheduleRow, toScheduledDebate } from './schedule-views.ts';
import type { ScheduleTables } from './tables.ts';

type Tables = ScheduleTables & AccountTables;

export type ScheduleChanges = Omit<UpdateScheduledDebateInput, 'id'>;

/** The fields that decide when a schedule runs: a change to any of them recomputes nextRunAt from now. */
const TIMING_FIELDS = ['frequency', 'dayOfWeek', 'dayOfMonth', 'timeOfDay', 'timezone'] as const;

const dayMissing = (missing: { path: string; message: string }) =>
  new AppError('VALIDATION_ERROR', missing.message, {
    details: [{ path: missing.path, message: missing.message, code: 'custom' }],
  });

/** Why a BYOK plan's schedule is refused: shown as the 400's message and its detail. */
export const BYOK_SCHEDULE_REFUSAL =
  'Scheduled debates cannot run on a BYOK plan: its debates run on the provider keys sent with each ' +
  'request (X-Provider-Keys), which are never stored, so a scheduled run would have none';

/**
 * Scheduled debates, as their owner manages them: only the owner reads or changes one (someone else's is
 * FORBIDDEN, a missing one NOT_FOUND). The runs themselves are the scheduler's (scheduler.ts).
 */
export function createScheduledDebates(db: Database, clock: Clock) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  const ownedRow = async (em: EntityManager, userId: string, id: string, lock: boolean) => {
    let select = k(em).selectFrom('scheduled_debates').select(SCHEDULE_COLUMNS).where('id', '=', id);
    if (lock) select = select.forUpdate();
    const row = await select.executeTakeFirst();
    if (!row) throw notFound('Scheduled debate');
    if (row.user_id !== userId)
      throw new AppError('FORBIDDEN', 'This scheduled debate belongs to another user');
    return row;
  };

  /**
   * Refuses to make a schedule active whose runs could never be paid: a BYOK plan runs every debate on the
   * provider keys of its request, and those are never stored (spec, Authentication 6). 400 VALIDATION_ERROR,
   * the refusal the spec lists for this route and the code a BYOK debate without its keys gets; a 201 would
   * promise runs that all fail.
   */
  const assertRunsFundable = async (em: EntityManager, userId: string) => {
    const user = await k(em).selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
    if (user && PLANS[user.plan].ownProviderKeys) {
      throw new AppError('VALIDATION_ERROR', BYOK_SCHEDULE_REFUSAL, {
        details: [{ path: '', message: BYOK_SCHEDULE_REFUSAL, code: 'provider_keys_not_stored' }],
      });
    }
  };

  return {
    /** A new schedule, active, its first run the first one after now; refused on BYOK plans. */
    create: (userId: string, input: CreateScheduledDebateInput): Promise<ScheduledDebate> =>
      db.em().transactional(async (em) => {
        await assertRunsFundable(em, userId);
        await assertUnderUserCap(em, userId, {
          max: SCHEDULES_PER_USER_MAX,
          noun: 'scheduled debate',
          count: async () =>
            (
              await k(em)
                .selectFrom('scheduled_debates')
                .select(sql<number>`count(*)::int`.as('n'))
                .where('user_id', '=', userId)
                .executeTakeFirstOrThrow()
            ).n,
        });
        const now = new Date(clock.now());
        const timing: ScheduleTiming = {
          frequency: input.frequency,
          dayOfWeek: input.dayOfWeek ?? null,
          dayOfMonth: input.dayOfMonth ?? null,
          timeOfDay: input.timeOfDay,
        };
        const row = await k(em)
          .insertInto('scheduled_debates')
          .values({
            user_id: userId,
            question: input.question,
            mode: input.mode,
            context: input.context ?? null,
            frequency: timing.frequency,
            day_of_week: timing.dayOfWeek,
            day_of_month: timing.dayOfMonth,
            time_of_day: timing.timeOfDay,
            timezone: input.timezone,
            active: true,
            max_runs: input.maxRuns ?? null,
            run_count: 0,
            next_run_at: nextRunAfter(timing, now),
            created_at: now,
            updated_at: now,
          })
          .returning(SCHEDULE_COLUMNS)
          .executeTakeFirstOrThrow();
        return toScheduledDebate(row);
      }),

    /** The caller's schedules, newest first, a page at a time; `active` keeps only active or paused ones. */
    list: async (userId: string, page: ScheduledDebateListQuery): Promise<ScheduledDebatePage> => {
      let mine = k().selectFrom('scheduled_debates').where('user_id', '=', userId);
      if (page.active !== undefined) mine = mine.where('active', '=', page.active);
      const [rows, counted] = await Promise.all([
        mine
          .select(SCHEDULE_COLUMNS)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(page.limit)
          .offset(offsetOf(page))
          .execute(),
        mine.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        schedules: rows.map(toScheduledDebate),
        ...pageOf(page, counted.n),
      };
    },

    get: async (userId: string, id: string): Promise<ScheduledDebate> =>
      toScheduledDebate(await ownedRow(db.em(), userId, id, false)),

    /**
     * Changes the fields given. nextRunAt is recomputed from now when a timing field changes value, or when
     * a paused schedule is resumed; weekly needs a dayOfWeek and monthly a dayOfMonth, given here or
     * already stored. A maxRuns at or below runCount pauses the schedule (its limit is reached); resuming
     * one whose limit is reached is refused until maxRuns is raised or removed, and so is resuming one on a
     * BYOK plan (its runs could not be paid).
     */
    update: (userId: string, id: string, changes: ScheduleChanges): Promise<ScheduledDebate> =>
      db.em().transactional(async (em) => {
        const row = await ownedRow(em, userId, id, true);
        const stored = {
          frequency: row.frequency,
          dayOfWeek: row.day_of_week,
          dayOfMonth: row.day_of_month,
          timeOfDay: row.time_of_day,
          timezone: row.timezone,
        };
        const timing = {
          frequency: changes.frequency ?? stored.frequency,
          dayOfWeek: changes.dayOfWeek !== undefined ? changes.dayOfWeek : stored.dayOfWeek,
          dayOfMonth: changes.dayOfMonth !== undefined ? changes.dayOfMonth : stored.dayOfMonth,
          timeOfDay: changes.timeOfDay ?? stored.timeOfDay,
          timezone: changes.timezone ?? stored.timezone,
        };
        const missing = missingScheduleDay(timing);
        if (missing) throw dayMissing(missing);
        const maxRuns = changes.maxRuns !== undefined ? changes.maxRuns : row.max_runs;
        const limitReached = maxRuns !== null && row.run_count >= maxRuns;
        if (changes.active === true && limitReached) {
          const message = `It has run ${row.run_count} of its maxRuns ${maxRuns}: raise or remove maxRuns to resume it`;
          throw new AppError('VALIDATION_ERROR', message, {
            details: [{ path: 'active', message, code: 'custom' }],
          });
        }
        const active = limitReached ? false : (changes.active ?? row.active);
        if (active && !row.active) await assertRunsFundable(em, userId);
        const timingChanged = TIMING_FIELDS.some((field) => timing[field] !== stored[field]);
        const resumed = active && !row.active;
        const now = new Date(clock.now());
        const set = {
          ...(changes.question !== undefined ? { question: changes.question } : {}),
          ...(changes.mode !== undefined ? { mode: changes.mode } : {}),
          ...(changes.context !== undefined ? { context: changes.context } : {}),
          ...(timingChanged
            ? {
                frequency: timing.frequency,
                day_of_week: timing.dayOfWeek,
                day_of_month: timing.dayOfMonth,
                time_of_day: timing.timeOfDay,
                timezone: timing.timezone,
              }
            : {}),
          ...(active !== row.active ? { active } : {}),
          ...(changes.maxRuns !== undefined ? { max_runs: changes.maxRuns } : {}),
          ...(timingChanged || resumed ? { next_run_at: nextRunAfter(timing, now) } : {}),
        };
        if (Object.keys(set).length === 0) return toScheduledDebate(row);
        const updated = await k(em)
          .updateTable('scheduled_debates')
          .set({ ...set, updated_at: now })
          .where('id', '=', id)
          .returning(SCHEDULE_COLUMNS)
          .executeTakeFirstOrThrow();
        return toScheduledDebate(updated);
      }),

    /** Deletes the schedule and its run links; the debates it created stay as they are. */
    remove: (userId: string, id: string): Promise<void> =>
      db.em().transactional(async (em) => {
        await ownedRow(em, userId, id, true);
        await k(em).deleteFrom('scheduled_debates').where('id', '=', id).execute();
      }),
  };
}

export type ScheduledDebates = ReturnType<typeof createScheduledDebates>;

/** The timing of a stored schedule. */
export const timingOf = (row: ScheduleRow): ScheduleTiming => ({
  frequency: row.frequency,
  dayOfWeek: row.day_of_week,
  dayOfMonth: row.day_of_month,
  timeOfDay: row.time_of_day,
});
