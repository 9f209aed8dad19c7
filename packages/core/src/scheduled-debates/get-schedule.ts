import type { ScheduledDebate } from '@verdict/contracts';
import { ownedSchedule } from './schedule-access.ts';
import type { ScheduleResources } from './schedule-resources.ts';
import { toScheduledDebate } from './schedule-views.ts';

/** One of the caller's schedules. */
export const getSchedule =
  ({ db }: ScheduleResources) =>
  async (userId: string, id: string): Promise<ScheduledDebate> =>
    toScheduledDebate(await ownedSchedule(db.em(), userId, id, false));
