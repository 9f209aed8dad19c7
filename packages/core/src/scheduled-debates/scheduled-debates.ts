import { createSchedule } from './create-schedule.ts';
import { getSchedule } from './get-schedule.ts';
import { listSchedules } from './list-schedules.ts';
import { removeSchedule } from './remove-schedule.ts';
import type { ScheduleResources } from './schedule-resources.ts';
import { updateSchedule } from './update-schedule.ts';

export { BYOK_SCHEDULE_REFUSAL } from './schedule-access.ts';
export type { ScheduleChanges } from './update-schedule.ts';

/**
 * Scheduled debates, as their owner manages them: only the owner reads or changes one (someone else's is
 * FORBIDDEN, a missing one NOT_FOUND). The runs themselves are the scheduler's (scheduler.ts). One
 * operation a file (schedule-access.ts: whose a schedule is, and whether its runs could be paid).
 */
export function createScheduledDebates(resources: ScheduleResources) {
  return {
    create: createSchedule(resources),
    list: listSchedules(resources),
    get: getSchedule(resources),
    update: updateSchedule(resources),
    remove: removeSchedule(resources),
  };
}

export type ScheduledDebates = ReturnType<typeof createScheduledDebates>;
