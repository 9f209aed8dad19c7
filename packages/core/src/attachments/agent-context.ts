import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { AttachmentTables } from './tables.ts';

/**
 * Characters of attachment text one debater prompt carries at most, across all of the debate's attachments.
 * Each attachment keeps up to 50,000 characters; five of them whole would drown the question and the
 * other agents' arguments (and cost five times the tokens on every turn), so a prompt carries a share.
 */
export const ATTACHMENT_PROMPT_BUDGET = 20_000;

export type AttachmentExcerpt = { name: string; text: string };

/**
 * The ready attachments of a debate as the agents read them, oldest first: the budget is split equally
 * among them and each one's text is cut to its share (a short one leaves the rest of its share to the
 * others). Pending and failed attachments are not there yet; they appear in the first round that starts
 * after they are ready.
 */
export async function attachmentExcerptsFor(
  db: Database,
  debateId: string,
  budget = ATTACHMENT_PROMPT_BUDGET,
): Promise<AttachmentExcerpt[]> {
  const rows = await query<AttachmentTables>(db.em())
    .selectFrom('attachments')
    .select(['filename', 'url', 'kind', 'text'])
    .where('debate_id', '=', debateId)
    .where('status', '=', 'ready')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const texts = rows.map((row) => ({
    name: row.kind === 'url' ? (row.url ?? row.filename) : row.filename,
    text: row.text ?? '',
  }));
  return shareBudget(texts, budget);
}

/** Cuts each text to an equal share of `budget`, handing what short texts leave over to the longer ones. */
export function shareBudget(texts: AttachmentExcerpt[], budget: number): AttachmentExcerpt[] {
  const byLength = [...texts.keys()].sort(
    (a, b) => (texts[a]?.text.length ?? 0) - (texts[b]?.text.length ?? 0),
  );
  const shares = new Map<number, number>();
  let left = budget;
  byLength.forEach((index, position) => {
    const share = Math.floor(left / (byLength.length - position));
    const length = Math.min(texts[index]?.text.length ?? 0, share);
    shares.set(index, length);
    left -= length;
  });
  return texts.map((excerpt, index) => ({
    name: excerpt.name,
    text: excerpt.text.slice(0, shares.get(index) ?? 0),
  }));
}
