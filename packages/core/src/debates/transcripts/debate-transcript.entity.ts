import { defineEntity, p } from '@mikro-orm/core';
import { Debate } from '../debate.entity.ts';

/** One event as a transcript keeps it: the columns of its `debate_events` row, `created_at` as `at`. */
export type TranscriptEvent = { seq: number; type: string; data: unknown; at: string };

/**
 * An ended debate's events compacted into one row (migration 0040), written only by compaction
 * (compact-ended-debates.ts). Readers read it through the view `debate_event_log` once `rowsDropped` says its
 * rows went with their partition.
 */
export const DebateTranscriptSchema = defineEntity({
  name: 'DebateTranscript',
  tableName: 'debate_transcripts',
  // A partition's drop marks the transcripts of its range.
  indexes: [{ name: 'debate_transcripts_created_index', properties: ['debateCreatedAt'] }],
  properties: {
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action'),
    attempt: p.integer(),
    /** The partition key its events had: which partition's drop takes its rows. */
    debateCreatedAt: p.datetime(),
    events: p.json<TranscriptEvent[]>(),
    eventCount: p.integer(),
    /** Set in the transaction that drops its rows: from then on readers read the transcript. */
    rowsDropped: p.boolean().default(false),
    compactedAt: p.datetime().defaultRaw('now()'),
  },
});

export class DebateTranscript extends DebateTranscriptSchema.class {}
DebateTranscriptSchema.setClass(DebateTranscript);
