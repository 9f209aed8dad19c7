import { randomUUID } from 'node:crypto';
import {
  type DebateMode,
  debateCredits,
  type FundingSource,
  MODE_PANEL,
  PLANS,
  type Plan,
} from '@verdict/contracts';
import { queueDebateWebhook } from '../../outbox/webhook-outbox.ts';
import { storedPreset } from '../../routing/debate-models.ts';
import { judgeModelFor } from '../../routing/judge-model.ts';
import { insertDebate } from '../debate-record.ts';
import { cachedAnswer } from './answer-cache.ts';
import { dispatch } from './dispatch.ts';
import { fund, payerFor } from './funding.ts';
import { rememberKey, replayed, requestHashOf } from './idempotency.ts';
import type { CallerTransaction, CreationResult, DebateRequest, Panel } from './request.ts';
import type { CreationResources } from './resources.ts';

/**
 * A new debate (or the first one again, for a repeated Idempotency-Key; or a cached answer): the payer
 * locked, the key and the cache asked, the mode's panel, funding and debit, the row and its `debate.created`
 * webhook in one transaction — the caller's when it passes one — and the job queued after commit.
 */
export function createDebateCreate(resources: CreationResources) {
  const { db, clock, config } = resources;

  /** The judge to name in the create response: only free-tier plans are told (theirs is lighter). */
  const judgeFor = (plan: Plan, fundingSource: FundingSource, request: DebateRequest) =>
    PLANS[plan].freeTier
      ? judgeModelFor(config.providers, {
          fundingSource,
          preset: storedPreset(request.preset, fundingSource),
          routing: request.routing,
        })
      : null;

  return async (request: DebateRequest, caller?: CallerTransaction): Promise<CreationResult> => {
    const requestHash = requestHashOf(request);
    const result = await (caller?.em ?? db.em()).transactional(async (em) => {
      const now = new Date(clock.now());
      const { payer, workspace } = await payerFor(resources, em, request);
      const again = await replayed(em, request, requestHash, now);
      if (again) return { ...again, cached: false, queue: false, plan: payer.plan };
      const mode = modeOf(request, workspace);
      const panel = panelFor({ ...request, mode });
      const hit = await cachedAnswer(resources, em, { ...request, mode }, panel, now);
      if (hit) {
        await rememberKey(em, request, requestHash, hit.id, now);
        return {
          debateId: hit.id,
          fundingSource: hit.funding_source,
          cached: true,
          queue: false,
          plan: payer.plan,
        };
      }
      const debateId = randomUUID();
      const fundingSource = await fund(
        resources,
        em,
        {
          ownerId: request.ownerId,
          payer,
          credits: creditsOf(request, mode, panel),
          route: request.route,
          hasProviderKeys: request.providerKeys !== null,
        },
        { debateId, note: `${mode} debate`, at: now, freeTier: true },
      );
      await insertDebate(em, {
        id: debateId,
        ownerId: request.ownerId,
        question: request.question,
        context: request.context,
        mode,
        fundingSource,
        agents: panel.agents,
        rounds: panel.rounds,
        // The free tier runs on the lighter routing unless the caller chose a preset.
        preset: storedPreset(request.preset, fundingSource),
        routing: request.routing,
        earlyStopThreshold: request.earlyStop?.threshold ?? null,
        compareOptions: request.compare ? (request.compareOptions ?? null) : null,
        evidenceEngine: PLANS[payer.plan].features.evidence,
        forkedFromId: request.forkedFromId ?? null,
        workspaceId: workspace?.workspaceId ?? null,
        at: now,
      });
      await rememberKey(em, request, requestHash, debateId, now);
      await request.alsoWrite?.(em, debateId);
      // Only here, for a debate that is new: a replayed Idempotency-Key or a cached answer creates nothing.
      await queueDebateWebhook(em, {
        debateId,
        event: 'debate.created',
        dedupeKey: `debate.created:${debateId}`,
        payload: { debateId, status: 'pending', mode, question: request.question },
      });
      return { debateId, fundingSource, cached: false, queue: true, plan: payer.plan };
    });
    const queue = async () => {
      if (result.queue) {
        await dispatch(resources, { debateId: result.debateId, attempt: 1 }, request.providerKeys);
      }
    };
    if (caller) caller.afterCommit(queue);
    else await atMost(queue(), ANSWER_WAITS_FOR_QUEUE_MS);
    return {
      debateId: result.debateId,
      fundingSource: result.fundingSource,
      cached: result.cached,
      judgeModel: judgeFor(result.plan, result.fundingSource, request),
    };
  };
}

/**
 * How long a create's answer waits for its job's publish: normally a millisecond, but with the bus out of
 * reach (a partition, a restart) the publish keeps trying for seconds and every create would wait with it.
 * The publish carries on after the answer; a job that never reaches the queue is the reconciler's
 * (dispatch.ts), as it was when the answer waited.
 */
const ANSWER_WAITS_FOR_QUEUE_MS = 1000;

/** Waits for `work` (which never rejects), or `ms`, whichever ends first; the work goes on either way. */
async function atMost(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** The debate's mode: the caller's, else its workspace's default, else fast. */
export const modeOf = (
  request: Pick<DebateRequest, 'mode'>,
  workspace: { defaultDebateMode: DebateMode } | null,
): DebateMode => request.mode ?? workspace?.defaultDebateMode ?? 'fast';

/** What the debate costs in credits on hosted keys: its mode's (or a comparison's) price, or its panel's. */
export const creditsOf = (request: Pick<DebateRequest, 'compare'>, mode: DebateMode, panel: Panel): number =>
  debateCredits({ mode, ...panel, compare: request.compare });

/** Agents × rounds: the mode's (v1 guide), unless the caller overrode them. */
export const panelFor = (
  request: Pick<DebateRequest, 'agents' | 'rounds'> & { mode: DebateMode },
): Panel => ({
  agents: request.agents ?? MODE_PANEL[request.mode].agents,
  rounds: request.rounds ?? MODE_PANEL[request.mode].rounds,
});
