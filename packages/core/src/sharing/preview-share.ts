import { sha256Hex } from '../shared/crypto.ts';
import { type SharingResources, sharingQuery } from './sharing-resources.ts';

/**
 * What a link preview may say about a live token (the share page's Open Graph tags): its question and
 * one-liner, and whether reading it needs sign-in. Not a view, and no rate limit: it reveals nothing the
 * link's holder could not read, and the page asks the public read for everything else.
 */
export const previewShare =
  ({ db }: SharingResources) =>
  async (
    token: string,
  ): Promise<{ question: string; oneLiner: string | null; requireSignIn: boolean } | null> => {
    const row = await sharingQuery(db.em())
      .selectFrom('share_links as s')
      .innerJoin('debates as d', 'd.id', 's.debate_id')
      .select(['d.question', 'd.status', 'd.verdict', 's.require_sign_in'])
      .where('s.token_hash', '=', sha256Hex(token))
      .where('d.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    const verdict = row.status === 'completed' ? (row.verdict as { oneLiner?: unknown } | null) : null;
    return {
      question: row.question,
      oneLiner: typeof verdict?.oneLiner === 'string' ? verdict.oneLiner : null,
      requireSignIn: row.require_sign_in,
    };
  };
