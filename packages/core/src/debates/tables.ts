import type { TablesOf } from '../db/kysely.ts';
import type { DebateSchema } from './debate.entity.ts';
import type { DebateCallSchema } from './debate-call.entity.ts';
import type { DebateEventRowSchema } from './debate-event.entity.ts';
import type { DebateSnapshotSchema } from './debate-snapshot.entity.ts';
import type { DebateTurnSchema } from './debate-turn.entity.ts';
import type { DeletedDebateSchema } from './deleted-debate.entity.ts';
import type { IdempotencyKeySchema } from './idempotency-key.entity.ts';

/** The tables of debates, for typed queries (db/kysely.ts). The engine writes those of a running debate. */
export type DebateTables = TablesOf<
  | typeof DebateSchema
  | typeof DebateEventRowSchema
  | typeof DebateTurnSchema
  | typeof DebateCallSchema
  | typeof DebateSnapshotSchema
  | typeof DeletedDebateSchema
  | typeof IdempotencyKeySchema
>;
