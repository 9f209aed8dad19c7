import type { EvidenceSource } from '@verdict/contracts';

/**
 * Characters of passages one debater prompt carries at most: five passages of the usual size, about 1,500
 * tokens, a fraction of what whole attachments cost (ATTACHMENT_PROMPT_BUDGET is 20,000).
 */
export const EVIDENCE_PROMPT_BUDGET = 6_000;

/** One stored passage of a debate's corpus. */
export type CorpusPassage = {
  /** n of E<n>, the debate's own numbering, never reused. */
  number: number;
  /** `E${number}`, as debaters cite it. */
  evidenceId: string;
  source: EvidenceSource;
  text: string;
  /** Character offsets of the passage in its source's extracted text, [start, end). */
  start: number;
  end: number;
  /**
   * Present (true) when its attachment was deleted: the passage keeps its number and still verifies the
   * citations made of it, but retrieval no longer offers it.
   */
  retired?: true;
};

/** A passage row as the reads select it. */
export type PassageRow = {
  number: number;
  source_kind: EvidenceSource['kind'];
  attachment_id: string | null;
  url: string | null;
  title: string;
  text: string;
  text_start: number;
  text_end: number;
};

/** The columns `toCorpusPassage` needs. */
export const PASSAGE_COLUMNS = [
  'number',
  'source_kind',
  'attachment_id',
  'url',
  'title',
  'text',
  'text_start',
  'text_end',
] as const;

export function toCorpusPassage(row: PassageRow): CorpusPassage {
  const source: EvidenceSource = {
    kind: row.source_kind,
    ...(row.attachment_id ? { attachmentId: row.attachment_id } : {}),
    ...(row.url ? { url: row.url } : {}),
    title: row.title,
  };
  return {
    number: row.number,
    evidenceId: `E${row.number}`,
    source,
    text: row.text,
    start: row.text_start,
    end: row.text_end,
    ...(isRetired(row) ? { retired: true as const } : {}),
  };
}

/** An attachment's passage whose attachment is gone (its id set null by the deletion). */
const isRetired = (row: Pick<PassageRow, 'source_kind' | 'attachment_id'>) =>
  row.source_kind !== 'context' && row.attachment_id === null;
