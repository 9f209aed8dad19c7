import { AppError, notFound } from '../shared/app-error.ts';
import { sha256Hex } from '../shared/crypto.ts';
import { type PublicDebateRead, panelOf, type TurnUsage, transcriptOf, turnUsage } from './public-debate.ts';
import { type SharingResources, sharingQuery } from './sharing-resources.ts';

/**
 * A link's read: the debate behind a live token, counted as a view. `signedIn` says whether the reader
 * brought valid credentials, which a link with requireSignIn needs (401 otherwise).
 */
export const readSharedDebate =
  (resources: SharingResources) =>
  async (token: string, signedIn: boolean): Promise<PublicDebateRead> => {
    const { db, citedEvidence } = resources;
    const { debate, unwritten } = await findCounted(resources, token, signedIn);
    if (!debate) throw notFound('Shared debate');
    if (debate.require_sign_in && !signedIn) {
      throw new AppError('UNAUTHORIZED', 'This shared debate needs you to sign in');
    }
    const events = await sharingQuery(db.em())
      .selectFrom('debate_event_log')
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
  };

/** The debate behind a live token, with its link's settings, and this process's views of it not yet written. */
const findCounted = ({ db, views }: SharingResources, token: string, signedIn: boolean) =>
  // The stored count and this process's unwritten views are read with no batch of views in flight, which
  // would be in neither; the view is counted only once the reader may see the debate.
  views.betweenWrites(async () => {
    const found = await sharingQuery(db.em())
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
