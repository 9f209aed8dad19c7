import type { ShareLinkSettings, UpdateShareInput } from '@verdict/contracts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { auditOwnerOf } from '../debates/debate-audit.ts';
import { notFound } from '../shared/app-error.ts';
import { type SharingResources, settingsOf, sharingQuery } from './sharing-resources.ts';

/**
 * Changes the link's settings given; the others keep their values. A debate not shared: NOT_FOUND. The link
 * is read locked first, so the entry's before values are what they really were.
 */
export const updateShareSettings =
  ({ db, clock, debateAccess }: SharingResources) =>
  async (
    userId: string,
    debateId: string,
    settings: UpdateShareInput['settings'],
  ): Promise<ShareLinkSettings> => {
    const debate = await debateAccess.controlled(userId, debateId, 'publish');
    const row = await db.em().transactional(async (em) => {
      const link = await sharingQuery(em)
        .selectFrom('share_links')
        .selectAll()
        .where('debate_id', '=', debateId)
        .forUpdate()
        .executeTakeFirst();
      if (!link) throw notFound('Share link');
      const updated = await sharingQuery(em)
        .updateTable('share_links')
        .set({
          ...(settings.allowComments === undefined ? {} : { allow_comments: settings.allowComments }),
          ...(settings.allowFork === undefined ? {} : { allow_fork: settings.allowFork }),
          ...(settings.showCost === undefined ? {} : { show_cost: settings.showCost }),
          ...(settings.requireSignIn === undefined ? {} : { require_sign_in: settings.requireSignIn }),
          updated_at: new Date(clock.now()),
        })
        .where('debate_id', '=', debateId)
        .returningAll()
        .executeTakeFirstOrThrow();
      const changes = changesOf(settingsOf(link), settingsOf(updated));
      if (Object.keys(changes).length > 0) {
        await recordAudit(em, clock, {
          owner: auditOwnerOf(debate),
          action: 'share_link.update',
          target: { type: 'share_link', id: debateId },
          changes,
        });
      }
      return updated;
    });
    return { debateId, settings: settingsOf(row), updatedAt: new Date(row.updated_at).toISOString() };
  };
