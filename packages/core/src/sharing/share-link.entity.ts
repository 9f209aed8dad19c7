import { defineEntity, p } from '@mikro-orm/core';
import { Debate } from '../debates/debate.entity.ts';

/**
 * A debate's share link: one per debate, rotated in place. Only the SHA-256 of the token is kept, so a
 * leaked table does not open any debate; a rotation or revocation kills the old token at once.
 */
export const ShareLinkSchema = defineEntity({
  name: 'ShareLink',
  tableName: 'share_links',
  properties: {
    // A key that is only a foreign key gets `on update cascade` by default; ids never change.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action'),
    tokenHash: p.string().length(64).unique(),
    allowComments: p.boolean().default(false),
    allowFork: p.boolean().default(false),
    showCost: p.boolean().default(false),
    requireSignIn: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class ShareLink extends ShareLinkSchema.class {}
ShareLinkSchema.setClass(ShareLink);
