import type { ShareLinkSettings, UpdateShareInput } from '@verdict/contracts';
import { notFound } from '../shared/app-error.ts';
import { type SharingResources, settingsOf, sharingQuery } from './sharing-resources.ts';

/** Changes the link's settings given; the others keep their values. A debate not shared: NOT_FOUND. */
export const updateShareSettings =
  ({ db, clock, debateAccess }: SharingResources) =>
  async (
    userId: string,
    debateId: string,
    settings: UpdateShareInput['settings'],
  ): Promise<ShareLinkSettings> => {
    await debateAccess.controlled(userId, debateId, 'publish');
    const row = await sharingQuery(db.em())
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
      .executeTakeFirst();
    if (!row) throw notFound('Share link');
    return { debateId, settings: settingsOf(row), updatedAt: new Date(row.updated_at).toISOString() };
  };
