import { z } from 'zod';
import { EvidencePassage } from './debate-evidence.ts';
import { DebateCost, DebateMode, DebateStatus, Verdict } from './debates.ts';
import { PanelMember } from './events.ts';
import { Citation } from './evidence.ts';
import { UuidInput } from './ids.ts';

/** PATCH /api/debates/:id/visibility (an extension): a debate is private until its owner makes it public. */
export const VisibilityInput = z.strictObject({ id: UuidInput, isPublic: z.boolean() });

export const DebateVisibility = z
  .object({ id: z.uuid(), isPublic: z.boolean() })
  .meta({ id: 'DebateVisibility' });
export type DebateVisibility = z.infer<typeof DebateVisibility>;

/** Share settings (spec): what a link's readers may do and see. Strict booleans: "true" is refused. */
export const ShareSettings = z
  .object({
    allowComments: z.boolean().meta({ description: 'Signed-in readers of the link may comment' }),
    allowFork: z.boolean().meta({ description: 'Signed-in readers of the link may fork the debate' }),
    showCost: z.boolean().meta({ description: 'The public read includes the debate cost' }),
    requireSignIn: z.boolean().meta({ description: 'The public read needs a session or an API key' }),
  })
  .meta({ id: 'ShareSettings' });
export type ShareSettings = z.infer<typeof ShareSettings>;

export const DEFAULT_SHARE_SETTINGS: ShareSettings = {
  allowComments: false,
  allowFork: false,
  showCost: false,
  requireSignIn: false,
};

export const ShareDebateInput = z.object({ debateId: UuidInput });

/** PATCH /api/share/:debateId: `settings` with any of the four flags; the rest keep their values. */
export const UpdateShareInput = z.strictObject({
  debateId: UuidInput,
  settings: z.strictObject({
    allowComments: z.boolean().optional(),
    allowFork: z.boolean().optional(),
    showCost: z.boolean().optional(),
    requireSignIn: z.boolean().optional(),
  }),
});
export type UpdateShareInput = z.infer<typeof UpdateShareInput>;

/** A debate's share link as its owner sees it. The token is shown by the create/rotate answer only. */
export const ShareLink = z
  .object({
    debateId: z.uuid(),
    shareUrl: z.url().meta({
      description:
        '{APP_URL}/share/<token>; with neither APP_URL nor PUBLIC_BASE_URL set, on the origin the request came to',
    }),
    token: z.string().meta({ description: 'The link token (43 characters, 256 random bits)' }),
    settings: ShareSettings,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ShareLink' });
export type ShareLink = z.infer<typeof ShareLink>;

/** The settings of a link after a PATCH (the token is not stored in a readable form, so it is not shown). */
export const ShareLinkSettings = z
  .object({ debateId: z.uuid(), settings: ShareSettings, updatedAt: z.iso.datetime() })
  .meta({ id: 'ShareLinkSettings' });
export type ShareLinkSettings = z.infer<typeof ShareLinkSettings>;

export const ShareRevoked = z.object({ debateId: z.uuid(), revoked: z.literal(true) });

/** Link tokens: base64url of 32 random bytes. */
export const ShareTokenInput = z.object({ token: z.string().min(1).max(200) });

/** One argument or rebuttal of the public transcript, with the claimId votes are keyed by. */
export const TranscriptEntry = z
  .object({
    claimId: z.string(),
    type: z.enum(['argument', 'rebuttal']),
    agent: z.string(),
    round: z.number().int(),
    targetAgent: z.string().nullable(),
    content: z.string(),
    /** The passages it cites, as the engine checked them (evidence engine on; absent otherwise). */
    citations: z.array(Citation).optional(),
    usage: z
      .object({
        inputTokens: z.number().int().min(0),
        outputTokens: z.number().int().min(0),
        costUsd: z.number().min(0).nullable(),
      })
      .nullable()
      .meta({ description: "The turn's tokens and list-price USD; null unless the owner chose showCost" }),
  })
  .meta({ id: 'TranscriptEntry' });
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** An event of the public replay: its number in the stream, name and payload, as the debate stream sends it. */
export const PublicDebateEvent = z
  .object({ seq: z.number().int(), event: z.string(), data: z.record(z.string(), z.unknown()) })
  .meta({ id: 'PublicDebateEvent' });

/**
 * GET /api/public/debates/:token: what a link's reader may see. An allow-list: no owner id or email, no key,
 * no routing, funding or failure internals, and the cost only when the owner chose to show it.
 */
export const PublicDebate = z
  .object({
    id: z.uuid().meta({ description: 'For comments and forks, when the link allows them' }),
    question: z.string(),
    context: z.string().nullable(),
    status: DebateStatus,
    mode: DebateMode.nullable(),
    isPublic: z.boolean(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
    panel: z.array(PanelMember),
    verdict: Verdict.nullable(),
    transcript: z.array(TranscriptEntry),
    events: z.array(PublicDebateEvent).meta({ description: 'The current attempt, in order' }),
    cost: DebateCost.nullable().meta({ description: 'null unless the owner chose showCost' }),
    citedPassages: z.array(EvidencePassage).meta({
      description:
        "The passages of the debate's corpus its transcript cites, with their citations (evidence engine on; " +
        'empty otherwise): never the rest of the documents',
    }),
    settings: ShareSettings.pick({ allowComments: true, allowFork: true }),
    viewCount: z.number().int(),
  })
  .meta({ id: 'PublicDebate' });
export type PublicDebate = z.infer<typeof PublicDebate>;
