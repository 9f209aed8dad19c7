import { defineEntity, p } from '@mikro-orm/core';
import { Debate } from './debate.entity.ts';

/**
 * The actor of a running debate at its last persisted step (engine/replay), written together with the
 * events that step produced, so a node that picks the debate up restores it from there. One row per debate.
 */
export const DebateSnapshotSchema = defineEntity({
  name: 'DebateSnapshot',
  tableName: 'debate_snapshots',
  properties: {
    // A key that is only a foreign key gets `on update cascade` by default; ids never change, and the table
    // as migrated has none.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action'),
    attempt: p.integer(),
    /** The machine's persisted snapshot and transition history, turns replaced by references. */
    state: p.json<Record<string, unknown>>(),
    /** The last event seq stored with this state. */
    lastSeq: p.integer(),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class DebateSnapshot extends DebateSnapshotSchema.class {}
DebateSnapshotSchema.setClass(DebateSnapshot);
