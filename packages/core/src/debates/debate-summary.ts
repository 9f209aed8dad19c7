import type { DebateMode, DebateStatus, DebateSummary } from '@verdict/contracts';

/**
 * The columns a summary needs, from a query that joins `debates as d`: select them with the list's own
 * columns and hand the row to toDebateSummary.
 */
export const DEBATE_SUMMARY_COLUMNS = [
  'd.id as summary_id',
  'd.question as summary_question',
  'd.status as summary_status',
  'd.mode as summary_mode',
  'd.created_at as summary_created_at',
] as const;

export type DebateSummaryRow = {
  summary_id: string;
  summary_question: string;
  summary_status: DebateStatus;
  summary_mode?: DebateMode | null | undefined;
  summary_created_at: string | Date;
};

/** What a chain or a collection shows of a debate: the one mapping. */
export const toDebateSummary = (row: DebateSummaryRow): DebateSummary => ({
  id: row.summary_id,
  question: row.summary_question,
  status: row.summary_status,
  mode: row.summary_mode ?? null,
  createdAt: new Date(row.summary_created_at).toISOString(),
});
