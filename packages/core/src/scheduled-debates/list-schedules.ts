import type { ScheduledDebateListQuery, ScheduledDebatePage } from '@verdict/contracts';
import { sql } from 'kysely';
import { offsetOf, pageOf } from '../shared/paging.ts';
import { type ScheduleResources, scheduleQuery } from './schedule-resources.ts';
import { SCHEDULE_COLUMNS, toScheduledDebate } from './schedule-views.ts';

/** The caller's schedules, newest first, a page at a time; `active` keeps only active or paused ones. */
export const listSchedules =
  ({ db }: ScheduleResources) =>
  async (userId: string, page: ScheduledDebateListQuery): Promise<ScheduledDebatePage> => {
    let mine = scheduleQuery(db.em()).selectFrom('scheduled_debates').where('user_id', '=', userId);
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
  };
