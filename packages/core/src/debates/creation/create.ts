import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import {
  type DebateMode,
  debateCredits,
  type FundingSource,
  MODE_PANEL,
  PLANS,
  type Plan,
} from '@verdict/contracts';
import type { Config } from '../../config/config.ts';
import { storedPreset } from '../../routing/debate-models.ts';
import { judgeModelFor } from '../../routing/judge-model.ts';
import { cachedAnswer } from './answer-cache.ts';
import { dispatch } from './dispatch.ts';
import { payerFor, planOf } from './funding.ts';
import { rememberKey, replayed, requestHashOf } from './idempotency.ts';
import { openDebate } from './open-debate.ts';
import type { CallerTransaction, CreationResult, DebateRequest, Panel } from './request.ts';
import type { CreationResources } from './resources.ts';

/**
 * A new debate (or the first one again, for a repeated Idempotency-Key; or a cached answer): the key and the
 * cache asked, then the mode's panel, funding and debit, the row and its `debate.created` webhook written in
 * one statement (open-debate.ts) — in the caller's transaction when it passes one — and the job queued after
 * commit.
 */
export function createDebateCreate(resources: CreationResources) {
  const { db, clock, config } = resources;

  /**
   * The debate in `em`: under the accounts' locks (`locked`, in a transaction) the workspace's checks and the
   * Idempotency-Key first; then the cache; then `open_debate`, which locks the accounts itself, so a personal
   * debate without a key or other writes needs no transaction of ours: the cache's read and one statement.
   */
  const createIn = async (
    em: EntityManager,
    request: DebateRequest,
    requestHash: string,
    locked: boolean,
  ) => {
    const now = new Date(clock.now());
    const { payer, workspace } = locked
      ? await payerFor(resources, em, request)
      : { payer: null, workspace: null };
    const again = payer && (await replayed(em, request, requestHash, now));
    if (payer && again) return { ...again, cached: false, queue: false, plan: payer.plan };
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
        plan: payer?.plan ?? (await planOf(em, request.ownerId)),
      };
    }
    const debateId = randomUUID();
    const opened = await openDebate(resources, em, {
      debateId,
      request,
      payerId: payer?.id ?? request.ownerId,
      mode,
      panel,
      credits: creditsOf(request, mode, panel),
      workspaceId: workspace?.workspaceId ?? null,
      at: now,
    });
    await rememberKey(em, request, requestHash, debateId, now);
    await request.alsoWrite?.(em, debateId);
    if (request.attachmentIds?.length) {
      await resources.attachments.copy(em, request.ownerId, request.attachmentIds, debateId);
    }
    return { debateId, fundingSource: opened.fundingSource, cached: false, queue: true, plan: opened.plan };
  };

  return async (request: DebateRequest, caller?: CallerTransaction): Promise<CreationResult> => {
    const requestHash = requestHashOf(request);
    const attaches = Boolean(request.attachmentIds?.length);
    // Read only when it decides something: a create without attachments is a round trip shorter.
    if (attaches) await resources.attachments.assertAllowed(db.em(), request.ownerId);
    const locked = Boolean(
      caller || request.workspaceId || request.idempotencyKey || request.alsoWrite || attaches,
    );
    const result = locked
      ? await (caller?.em ?? db.em()).transactional((em) => createIn(em, request, requestHash, true))
      : await createIn(db.em(), request, requestHash, false);
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
      judgeModel: judgeFor(config, result.plan, result.fundingSource, request),
    };
  };
}

/** The judge to name in the create response: only free-tier plans are told (theirs is lighter). */
const judgeFor = (config: Config, plan: Plan, fundingSource: FundingSource, request: DebateRequest) =>
  PLANS[plan].freeTier
    ? judgeModelFor(config.providers, {
        fundingSource,
        preset: storedPreset(request.preset, fundingSource),
        routing: request.routing,
      })
    : null;

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
