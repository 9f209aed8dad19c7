import { recordAudit } from '../audit/record-audit.ts';
import { ownedSchedule } from './schedule-access.ts';
import { type ScheduleResources, scheduleQuery } from './schedule-resources.ts';

/** Deletes the schedule and its run links; the debates it created stay as they are. */
export const removeSchedule =
  ({ db, clock }: ScheduleResources) =>
  (userId: string, id: string): Promise<void> =>
    db.em().transactional(async (em) => {
      await ownedSchedule(em, userId, id, true);
      await scheduleQuery(em).deleteFrom('scheduled_debates').where('id', '=', id).execute();
      await recordAudit(em, clock, {
        owner: { accountId: userId },
        action: 'schedule.delete',
        target: { type: 'schedule', id },
      });
    });
