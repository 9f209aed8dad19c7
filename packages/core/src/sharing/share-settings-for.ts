import type { EntityManager } from '@mikro-orm/core';
import type { ShareSettings } from '@verdict/contracts';
import { type SharingResources, settingsOf, sharingQuery } from './sharing-resources.ts';

/** The link's settings for what a holder may do (comment, fork); null when the debate is not shared. */
export const shareSettingsFor =
  ({ db }: SharingResources) =>
  async (debateId: string, em?: EntityManager): Promise<ShareSettings | null> => {
    const row = await sharingQuery(em ?? db.em())
      .selectFrom('share_links')
      .selectAll()
      .where('debate_id', '=', debateId)
      .executeTakeFirst();
    return row ? settingsOf(row) : null;
  };
