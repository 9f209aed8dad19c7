import type { DebateCreation } from '../debates/creation.ts';
import type { CoreResources } from '../resources.ts';
import { claimDue, type RunOutcome, runSchedule } from './schedule-run.ts';

export type { RunOutcome } from './schedule-run.ts';

/** What the scheduler uses: core's database and clock, and the debates' creation it makes runs with. */
export type SchedulerResources = Pick<CoreResources, 'db' | 'clock'> & {
  creation: Pick<DebateCreation, 'create'>;
};

/** A due run whose transaction failed unexpectedly (not a refusal): rolled back, due again next pass. */
class RunFailed extends Error {
  override name = 'RunFailed';
  readonly scheduleId: string;
  constructor(scheduleId: string, cause: unknown) {
    super(`scheduled debate ${scheduleId}: its due run failed`, { cause });
    this.scheduleId = scheduleId;
  }
}

/**
 * The scheduler: makes the debates of due schedules. Every engine node runs it (engine/workers/
 * scheduler-worker.ts); any number may pass at once.
 *
 * One due run is one transaction: claim the schedule (`for update skip locked`, so nodes passing together
 * take different schedules), create its debate by every rule of a manual one (creation.ts, as the owner, on
 * the /api route) inside that transaction, link the debate to the run, and move nextRunAt on. They commit
 * together or not at all: a node that dies mid-run leaves the schedule due and no debate, and the next pass
 * (of any node) makes exactly one. The job is queued after commit; should a node die between the two, the
 * reconciler queues the stored debate.
 *
 * nextRunAt moves to the first run after now, not after the run that was due: a schedule missed for days
 * (no node running) runs once, then keeps its rhythm. A refused run (no credits, the free tier used up, too
 * many debates running, a BYOK plan — the service stores no provider keys) records its code and message as
 * lastFailure, is not counted, and the schedule still moves on. The run that reaches maxRuns deactivates it.
 */
export function createScheduler({ db, clock, creation }: SchedulerResources) {
  /** One due run in its own transaction, or null when nothing (not in `skip`) is due. */
  const runOneDue = async (skip: readonly string[]): Promise<RunOutcome | null> => {
    const queued: (() => Promise<void>)[] = [];
    const outcome = await db.em().transactional(async (em) => {
      const now = new Date(clock.now());
      const schedule = await claimDue(em, now, skip);
      if (!schedule) return null;
      try {
        return await runSchedule(em, creation, { schedule, now, queued });
      } catch (error) {
        throw new RunFailed(schedule.id, error);
      }
    });
    for (const queue of queued) await queue();
    return outcome;
  };

  return {
    /**
     * Makes the due runs, up to `max`, one transaction each, and says what each came to. A run that fails
     * unexpectedly (the database, a defect) is rolled back and left due; the others still run, and the
     * pass then fails with the first such error, so the worker reports it and the next pass tries again.
     */
    runDue: async (max: number): Promise<RunOutcome[]> => {
      const outcomes: RunOutcome[] = [];
      const failed: RunFailed[] = [];
      while (outcomes.length + failed.length < max) {
        try {
          const outcome = await runOneDue(failed.map((f) => f.scheduleId));
          if (!outcome) break;
          outcomes.push(outcome);
        } catch (error) {
          if (!(error instanceof RunFailed)) throw error;
          failed.push(error);
        }
      }
      if (failed[0]) throw failed[0];
      return outcomes;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
