import { DEFAULT_SHARE_SETTINGS, type ShareLink } from '@verdict/contracts';
import { sql } from 'kysely';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { auditOwnerOf } from '../debates/debate-audit.ts';
import { randomToken, sha256Hex } from '../shared/crypto.ts';
import { type SharingResources, settingsOf, sharingQuery } from './sharing-resources.ts';

/** 32 random bytes: 256 bits, twice the floor a guessable-by-nobody link needs. */
const TOKEN_BYTES = 32;

/**
 * Creates the link, or rotates its token (the old one is dead at once); settings survive a rotation. Either
 * is recorded as the link's creation: a new link with its settings, a rotation as its token changed.
 */
export const shareDebate =
  ({ db, clock, debateAccess, appUrl }: SharingResources) =>
  async (userId: string, debateId: string): Promise<ShareLink> => {
    const debate = await debateAccess.controlled(userId, debateId, 'publish');
    const token = randomToken(TOKEN_BYTES);
    const now = new Date(clock.now());
    const row = await db.em().transactional(async (em) => {
      const link = await sharingQuery(em)
        .insertInto('share_links')
        .values({
          debate_id: debateId,
          token_hash: sha256Hex(token),
          allow_comments: DEFAULT_SHARE_SETTINGS.allowComments,
          allow_fork: DEFAULT_SHARE_SETTINGS.allowFork,
          show_cost: DEFAULT_SHARE_SETTINGS.showCost,
          require_sign_in: DEFAULT_SHARE_SETTINGS.requireSignIn,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.column('debate_id').doUpdateSet({ token_hash: sha256Hex(token), updated_at: now }),
        )
        // xmax is 0 on a row this statement inserted, set on one it updated (a rotation).
        .returningAll()
        .returning(sql<boolean>`xmax = 0`.as('inserted'))
        .executeTakeFirstOrThrow();
      await recordAudit(em, clock, {
        owner: auditOwnerOf(debate),
        action: 'share_link.create',
        target: { type: 'share_link', id: debateId },
        changes: link.inserted
          ? changesOf(null, { ...settingsOf(link), token: true }, ['token'])
          : { token: { changed: true } },
      });
      return link;
    });
    return {
      debateId,
      shareUrl: `${appUrl}/share/${token}`,
      token,
      settings: settingsOf(row),
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  };
