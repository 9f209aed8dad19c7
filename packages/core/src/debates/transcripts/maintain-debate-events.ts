import type { Database } from '../../db/orm.ts';
import type { Clock } from '../../shared/clock.ts';
import { compactEndedDebates } from './compact-ended-debates.ts';
import { dropEventPartition } from './drop-event-partition.ts';
import { eventPartitions, makePartitionsAhead } from './event-partitions.ts';

const DAY_MS = 86_400_000;

export type DebateEventsMaintenance = {
  /** Months made ahead of the current one: a write never finds its month missing while the job runs. */
  monthsAhead: number;
  /** Days a partition is kept after its last month ends (DEBATE_EVENTS_RETENTION_DAYS); null: kept forever. */
  retentionDays: number | null;
};

/** What a pass did: partitions made and dropped, debates compacted. */
export type MaintenancePass = { made: string[]; compacted: number; dropped: string[] };

/**
 * One pass of the maintenance of `debate_events` (migration 0040): the months ahead made, then each partition
 * past retention (its range ended more than `retentionDays` ago) has its ended debates compacted into
 * transcripts and is dropped once all of its debates are; a partition holding a debate that has not ended
 * stays, and is looked at again next pass.
 */
export async function maintainDebateEvents(
  db: Database,
  clock: Clock,
  settings: DebateEventsMaintenance,
): Promise<MaintenancePass> {
  const now = new Date(clock.now());
  const made = await makePartitionsAhead(db.em(), now, settings.monthsAhead);
  const pass: MaintenancePass = { made, compacted: 0, dropped: [] };
  if (settings.retentionDays === null) return pass;
  const dueBefore = new Date(now.getTime() - settings.retentionDays * DAY_MS);
  for (const partition of await eventPartitions(db.em())) {
    if (partition.isDefault || partition.to === null || partition.to > dueBefore) continue;
    pass.compacted += await compactEndedDebates(db.em(), partition.from, partition.to);
    if (await dropEventPartition(db.em(), partition)) pass.dropped.push(partition.name);
  }
  return pass;
}
