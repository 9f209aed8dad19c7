import type { EntityManager } from '@mikro-orm/core';
import {
  type Citation,
  DEFAULT_SHARE_SETTINGS,
  type DebateVisibility,
  type EvidencePassage,
  type PanelMember,
  type ShareLink,
  type ShareLinkSettings,
  type ShareSettings,
  type TranscriptEntry,
  type UpdateShareInput,
} from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import { setDebatePublic } from '../debates/debate-record.ts';
import type { DebateTables } from '../debates/tables.ts';
import { usdOfNano } from '../routing/prices.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { randomToken, sha256Hex } from '../shared/crypto.ts';
import type { SharingTables } from './tables.ts';
import type { ViewCounter } from './view-counter.ts';

type Tables = SharingTables & DebateTables;

/** 32 random bytes: 256 bits, twice the floor a guessable-by-nobody link needs. */
const TOKEN_BYTES = 32;

type LinkRow = {
  allow_comments: boolean;
  allow_fork: boolean;
  show_cost: boolean;
  require_sign_in: boolean;
  created_at: string;
  updated_at: string;
};

const settingsOf = (row: LinkRow): ShareSettings => ({
  allowComments: row.allow_comments,
  allowFork: row.allow_fork,
  showCost: row.show_cost,
  requireSignIn: row.require_sign_in,
});

/** A stored event, as the public read hands it to the HTTP layer (which shapes `data` as the stream does). */
export type PublicEventRow = { seq: number; type: string; data: Record<string, unknown> };

/** What a link shows, before the HTTP layer shapes the events as the debate stream does. */
export type PublicDebateRead = {
  id: string;
  question: string;
  context: string | null;
  status: string;
  mode: string | null;
  isPublic: boolean;
  createdAt: string;
  completedAt: string | null;
  panel: PanelMember[];
  verdict: unknown;
  transcript: TranscriptEntry[];
  events: PublicEventRow[];
  cost: unknown;
  /** The passages the transcript cites (evidence engine on; empty otherwise). */
  citedPassages: EvidencePassage[];
  settings: { allowComments: boolean; allowFork: boolean };
  viewCount: number;
};

export type Sharing = ReturnType<typeof createSharing>;

/**
 * Who besides its owner may see a debate: public debates (visibility), and whoever holds its share link.
 * Links are owner-only to manage; another user's debate is "not found", never "forbidden".
 */
export function createSharing(
  db: Database,
  clock: Clock,
  debateAccess: DebateAccess,
  views: ViewCounter,
  appUrl: string,
  /** The passages a debate's transcript cites (evidence/evidence-reads.ts): what a link shows of its corpus. */
  citedEvidence: (debateId: string, attempt: number) => Promise<EvidencePassage[]>,
) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);
  const shareUrl = (token: string) => `${appUrl}/share/${token}`;

  const linkOf = (debateId: string, em?: EntityManager) =>
    k(em).selectFrom('share_links').selectAll().where('debate_id', '=', debateId).executeTakeFirst();

  return {
    setVisibility: async (userId: string, id: string, isPublic: boolean): Promise<DebateVisibility> => {
      await debateAccess.controlled(userId, id, isPublic ? 'publish' : 'control');
      await setDebatePublic(db.em(), id, isPublic);
      return { id, isPublic };
    },

    /** Creates the link, or rotates its token (the old one is dead at once); settings survive a rotation. */
    share: async (userId: string, debateId: string): Promise<ShareLink> => {
      await debateAccess.controlled(userId, debateId, 'publish');
      const token = randomToken(TOKEN_BYTES);
      const now = new Date(clock.now());
      const row = await k()
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
        .returningAll()
        .executeTakeFirstOrThrow();
      return {
        debateId,
        shareUrl: shareUrl(token),
        token,
        settings: settingsOf(row),
        createdAt: new Date(row.created_at).toISOString(),
        updatedAt: new Date(row.updated_at).toISOString(),
      };
    },

    updateSettings: async (
      userId: string,
      debateId: string,
      settings: UpdateShareInput['settings'],
    ): Promise<ShareLinkSettings> => {
      await debateAccess.controlled(userId, debateId, 'publish');
      const row = await k()
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
    },

    revoke: async (userId: string, debateId: string) => {
      await debateAccess.controlled(userId, debateId);
      const deleted = await k()
        .deleteFrom('share_links')
        .where('debate_id', '=', debateId)
        .executeTakeFirst();
      if (deleted.numDeletedRows === 0n) throw notFound('Share link');
      return { debateId, revoked: true as const };
    },

    /** The link's settings for what a holder may do (comment, fork); null when the debate is not shared. */
    settingsFor: async (debateId: string, em?: EntityManager): Promise<ShareSettings | null> => {
      const row = await linkOf(debateId, em);
      return row ? settingsOf(row) : null;
    },

    /**
     * What a link preview may say about a live token (the share page's Open Graph tags): its question and
     * one-liner, and whether reading it needs sign-in. Not a view, and no rate limit: it reveals nothing the
     * link's holder could not read, and the page asks the public read for everything else.
     */
    preview: async (
      token: string,
    ): Promise<{ question: string; oneLiner: string | null; requireSignIn: boolean } | null> => {
      const row = await k()
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
    },

    /**
     * A link's read: the debate behind a live token, counted as a view. `signedIn` says whether the reader
     * brought valid credentials, which a link with requireSignIn needs (401 otherwise).
     */
    read: async (token: string, signedIn: boolean): Promise<PublicDebateRead> => {
      // The stored count and this process's unwritten views are read with no batch of views in flight, which
      // would be in neither; the view is counted only once the reader may see the debate.
      const { debate, unwritten } = await views.betweenWrites(async () => {
        const found = await k()
          .selectFrom('share_links as s')
          .innerJoin('debates as d', 'd.id', 's.debate_id')
          .select([
            'd.id',
            'd.question',
            'd.context',
            'd.status',
            'd.mode',
            'd.is_public',
            'd.created_at',
            'd.completed_at',
            'd.verdict',
            'd.cost',
            'd.attempt',
            'd.evidence_engine',
            'd.view_count',
            's.allow_comments',
            's.allow_fork',
            's.show_cost',
            's.require_sign_in',
          ])
          .where('s.token_hash', '=', sha256Hex(token))
          .where('d.deleted_at', 'is', null)
          .executeTakeFirst();
        if (!found || (found.require_sign_in && !signedIn)) return { debate: found, unwritten: 0 };
        return { debate: found, unwritten: views.count(found.id) };
      });
      if (!debate) throw notFound('Shared debate');
      if (debate.require_sign_in && !signedIn) {
        throw new AppError('UNAUTHORIZED', 'This shared debate needs you to sign in');
      }
      const events = await k()
        .selectFrom('debate_events')
        .select(['seq', 'type', 'data'])
        .where('debate_id', '=', debate.id)
        .where('attempt', '=', debate.attempt)
        .orderBy('seq')
        .execute();
      const completed = debate.status === 'completed';
      const citedPassages = debate.evidence_engine ? await citedEvidence(debate.id, debate.attempt) : [];
      // Each turn's tokens and cost, as the owner's cost breakdown lists them, when the owner shows the cost.
      const usageOf = debate.show_cost ? await turnUsage(db.em(), debate) : new Map<string, TurnUsage>();
      return {
        id: debate.id,
        question: debate.question,
        context: debate.context ?? null,
        status: debate.status,
        mode: debate.mode ?? null,
        isPublic: debate.is_public,
        createdAt: new Date(debate.created_at).toISOString(),
        completedAt: debate.completed_at ? new Date(debate.completed_at).toISOString() : null,
        panel: panelOf(events),
        verdict: completed ? (debate.verdict ?? null) : null,
        transcript: transcriptOf(events).map((entry) => ({
          ...entry,
          usage: usageOf.get(`${entry.round}:${entry.agent}`) ?? null,
        })),
        events,
        cost: completed && debate.show_cost ? (debate.cost ?? null) : null,
        citedPassages,
        settings: { allowComments: debate.allow_comments, allowFork: debate.allow_fork },
        viewCount: debate.view_count + unwritten,
      };
    },
  };
}

type TurnUsage = { inputTokens: number; outputTokens: number; costUsd: number | null };

/** The tokens and cost of each turn of the debate's attempt, by `round:agent`. */
async function turnUsage(em: EntityManager, debate: { id: string; attempt: number }) {
  const turns = await query<Tables>(em)
    .selectFrom('debate_turns')
    .select(['round', 'agent', 'input_tokens', 'output_tokens', 'cost_nano_usd'])
    .where('debate_id', '=', debate.id)
    .where('attempt', '=', debate.attempt)
    .execute();
  return new Map<string, TurnUsage>(
    turns.map((turn) => [
      `${turn.round}:${turn.agent}`,
      {
        inputTokens: turn.input_tokens,
        outputTokens: turn.output_tokens,
        costUsd: turn.cost_nano_usd === null ? null : usdOfNano(Number(turn.cost_nano_usd)),
      },
    ]),
  );
}

/** The panel as the debate announced it (debate.started), or none before it started. */
function panelOf(events: PublicEventRow[]): PanelMember[] {
  const started = events.find((event) => event.type === 'debate.started');
  const panel = started?.data.panel;
  return Array.isArray(panel) ? (panel as PanelMember[]) : [];
}

/** Every argument and rebuttal in the order spoken, with the claimId votes name it by. */
export function transcriptOf(events: PublicEventRow[]): TranscriptEntry[] {
  return events.flatMap((event): TranscriptEntry[] => {
    if (event.type !== 'argument' && event.type !== 'rebuttal') return [];
    const data = event.data as {
      claimId: string;
      agent: string;
      round: number;
      content: string;
      targetAgent?: string;
      citations?: Citation[];
    };
    return [
      {
        claimId: data.claimId,
        type: event.type,
        agent: data.agent,
        round: data.round,
        targetAgent: data.targetAgent ?? null,
        content: data.content,
        ...(data.citations ? { citations: data.citations } : {}),
        usage: null,
      },
    ];
  });
}
