import type { TablesOf } from '../db/kysely.ts';
import type { DebateSchema } from './debate.entity.ts';
import type { DebateCallSchema } from './debate-call.entity.ts';
import type { DebateEventRowSchema } from './debate-event.entity.ts';
import type { DebateSnapshotSchema } from './debate-snapshot.entity.ts';
import type { DebateTurnSchema } from './debate-turn.entity.ts';
import type { DeletedDebateSchema } from './deleted-debate.entity.ts';
import type { IdempotencyKeySchema } from './idempotency-key.entity.ts';
import type { DebateTranscriptSchema } from './transcripts/debate-transcript.entity.ts';

type EventRows = TablesOf<typeof DebateEventRowSchema>['debate_events'];

/**
 * The tables of debates, for typed queries (db/kysely.ts). The engine writes those of a running debate.
 * Readers of events read the view `debate_event_log` (migration 0040): the rows of `debate_events` while they
 * exist, else the stored transcript's.
 */
export type DebateTables = { debate_event_log: Omit<EventRows, 'debate_created_at'> } & TablesOf<
  | typeof DebateSchema
  | typeof DebateEventRowSchema
  | typeof DebateTurnSchema
  | typeof DebateCallSchema
  | typeof DebateSnapshotSchema
  | typeof DeletedDebateSchema
  | typeof IdempotencyKeySchema
  | typeof DebateTranscriptSchema
>;
