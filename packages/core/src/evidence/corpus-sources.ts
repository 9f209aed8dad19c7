import type { EntityManager } from '@mikro-orm/core';
import type { EvidenceSource } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { EvidenceTables } from './tables.ts';

/** A text the corpus is cut from: the debate's context or one of its ready attachments. */
export type CorpusSource = {
  kind: EvidenceSource['kind'];
  /** The attachment (files and pages); null for the context. */
  attachmentId: string | null;
  url: string | null;
  title: string;
  text: string;
};

/**
 * The debate's sources that have no passages yet, in the order they join the corpus: the context first
 * (it is the debate's own), then ready attachments oldest first. Texts are read only for these: a later
 * round's build reads no attachment text it stored before.
 */
export async function unstoredSources(em: EntityManager, debateId: string): Promise<CorpusSource[]> {
  const k = query<EvidenceTables>(em);
  const debate = await k
    .selectFrom('debates as d')
    .select([
      'd.context',
      sql<boolean>`exists (select 1 from evidence_passages p
        where p.debate_id = d.id and p.source_kind = 'context')`.as('context_stored'),
    ])
    .where('d.id', '=', debateId)
    .executeTakeFirst();
  if (!debate) return [];
  const attachments = await k
    .selectFrom('attachments as a')
    .select(['a.id', 'a.kind', 'a.filename', 'a.url', 'a.text'])
    .where('a.debate_id', '=', debateId)
    .where('a.status', '=', 'ready')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('evidence_passages as p').select('p.number').whereRef('p.attachment_id', '=', 'a.id'),
        ),
      ),
    )
    .orderBy('a.created_at', 'asc')
    .orderBy('a.id', 'asc')
    .execute();
  const context: CorpusSource[] =
    debate.context?.trim() && !debate.context_stored
      ? [{ kind: 'context', attachmentId: null, url: null, title: 'Context', text: debate.context }]
      : [];
  return [
    ...context,
    ...attachments.map(
      (row): CorpusSource => ({
        kind: row.kind === 'url' ? 'page' : 'attachment',
        attachmentId: row.id,
        url: row.kind === 'url' ? row.url : null,
        title: row.filename || row.url || 'Attachment',
        text: row.text ?? '',
      }),
    ),
  ];
}

/**
 * Whether `source` still has no passages, and (an attachment) is still there, ready: asked under the
 * corpus lock, the attachment's row share-locked until the transaction ends, so a deletion waits for
 * the passages to be stored (and then retires them) instead of racing their insert.
 */
export async function stillUnstored(em: EntityManager, debateId: string, source: CorpusSource) {
  const k = query<EvidenceTables>(em);
  if (source.attachmentId === null) {
    const stored = await k
      .selectFrom('evidence_passages')
      .select('number')
      .where('debate_id', '=', debateId)
      .where('source_kind', '=', 'context')
      .limit(1)
      .executeTakeFirst();
    return !stored;
  }
  const attachment = await k
    .selectFrom('attachments')
    .select('id')
    .where('id', '=', source.attachmentId)
    .where('status', '=', 'ready')
    .forKeyShare()
    .executeTakeFirst();
  if (!attachment) return false;
  const stored = await k
    .selectFrom('evidence_passages')
    .select('number')
    .where('attachment_id', '=', source.attachmentId)
    .limit(1)
    .executeTakeFirst();
  return !stored;
}
