import { type DebateEstimate, type FundingSource, PLANS } from '@verdict/contracts';
import type { Funding } from '../../billing/funding.ts';
import { type CostEstimate, estimateDebateCost, kindOf } from '../../routing/cost-estimate.ts';
import { type DebateModels, debateModelsFor, seatModel, storedPreset } from '../../routing/debate-models.ts';
import { RoutingError } from '../../routing/models.ts';
import {
  type DebateKind,
  INTERVAL_PERCENTILES,
  LEARNT_AT_LEAST,
  LEARNT_FROM_LAST,
} from '../../routing/output-lengths.ts';
import { AppError } from '../../shared/app-error.ts';
import { cachedAnswer } from './answer-cache.ts';
import { creditsOf, modeOf, panelFor } from './create.ts';
import { fundingOf, payerFor } from './funding.ts';
import { createOutputHistory, type WantedLengths } from './output-history.ts';
import type { DebateRequest } from './request.ts';
import type { CreationResources } from './resources.ts';

/** Refusals of funding an estimate reports in its body: what the balance or the month allows now. */
const FUNDING_REFUSALS = new Set(['QUOTA_EXCEEDED', 'INSUFFICIENT_CREDITS', 'MONTHLY_LIMIT_REACHED']);

/**
 * What creating this debate would charge and spend, by the create's own rules (mode, panel, cache, funding,
 * routing) and nothing written: no debate, no debit, no Idempotency-Key remembered. Refusals of the request
 * itself (a workspace the caller may not write to, X-Provider-Keys on the wrong plan) are thrown as the create
 * throws them; a shortfall of credits or free debates is reported in `refusal`. The concurrent limit is not
 * asked: it says when a debate may start, not what it costs.
 */
export function createDebateEstimate(resources: CreationResources) {
  const { db, clock, config } = resources;
  const learntLengths = createOutputHistory(db, clock);
  return async (request: DebateRequest): Promise<DebateEstimate> => {
    const now = new Date(clock.now());
    const ids = request.attachmentIds ?? [];
    if (ids.length > 0) await resources.attachments.assertAllowed(db.em(), request.ownerId);
    const decided = await db.em().transactional(async (em) => {
      const { payer, workspace } = await payerFor(resources, em, request);
      const documents = ids.length > 0 ? await resources.attachments.check(em, request.ownerId, ids) : [];
      const mode = modeOf(request, workspace);
      const panel = panelFor({ ...request, mode });
      const cached = await cachedAnswer(resources, em, { ...request, mode }, panel, now);
      const credits = creditsOf(request, mode, panel);
      let funding: Funding | null = null;
      let refusal: DebateEstimate['refusal'] = null;
      try {
        funding = await fundingOf(
          resources,
          em,
          {
            ownerId: request.ownerId,
            payer,
            credits,
            route: request.route,
            hasProviderKeys: request.providerKeys !== null,
          },
          now,
          true,
          // Asking is not being refused: the limits' refusal counters stay the creates'.
          true,
        );
      } catch (error) {
        if (!(error instanceof AppError) || !FUNDING_REFUSALS.has(error.code)) throw error;
        refusal = { code: error.code, message: error.message };
      }
      // As the create decides it: by the paying account's plan.
      const evidence = PLANS[payer.plan].features.evidence;
      return { mode, panel, cached: cached !== null, credits, funding, refusal, documents, evidence };
    });
    // A refused debate is estimated as the paid one it would be once the credits are there.
    const fundingSource: FundingSource = decided.funding?.source ?? 'user_credits';
    const models = modelsOrRefusal(() =>
      debateModelsFor(
        config.providers,
        { fundingSource, preset: storedPreset(request.preset, fundingSource), routing: request.routing },
        request.providerKeys,
      ),
    );
    const { agents, rounds } = decided.panel;
    // Read after the transaction: the learnt lengths need no lock, and are mostly this process's cache.
    const asked = {
      question: request.question,
      context: request.context,
      agents,
      rounds,
      models,
      options: request.compare ? (request.compareOptions ?? null) : null,
      documents: decided.documents,
      evidence: decided.evidence,
    };
    const lengths = await learntLengths(lengthsWanted(models, agents, rounds, kindOf(asked)));
    const { basis, ...cost } = estimateDebateCost({ ...asked, lengths });
    return {
      mode: decided.mode,
      agents: decided.panel.agents,
      rounds: decided.panel.rounds,
      credits: decided.credits,
      charge: decided.cached || !decided.funding ? 0 : decided.funding.charge,
      fundingSource: decided.cached ? null : (decided.funding?.source ?? null),
      refusal: decided.cached ? null : decided.refusal,
      cached: decided.cached,
      simulated: models.simulated,
      ...cost,
      note: noteOf(models.simulated, decided.cached, basis),
    };
  };
}

/**
 * No usable provider serves a task of this debate (a preset whose providers are not configured, keys a
 * key's allow-list excludes): created, it would fail PROVIDER_ERROR; estimated, it is a request error.
 */
function modelsOrRefusal<T>(models: () => T): T {
  try {
    return models();
  } catch (error) {
    if (!(error instanceof RoutingError)) throw error;
    throw new AppError('VALIDATION_ERROR', `No provider can run this debate: ${error.message}`);
  }
}

/**
 * The (model, task) pairs a debate calls, in its kind of debate: each seated model's openings (and
 * rebuttals), the judge, the classifier.
 */
function lengthsWanted(
  models: DebateModels,
  agents: number,
  rounds: number,
  kind: DebateKind,
): WantedLengths[] {
  const seated = [...new Set(Array.from({ length: agents }, (_, seat) => seatModel(seat, models.panel)))];
  return [
    ...seated.map((model) => ({ model, task: 'opening' as const, kind })),
    ...(rounds > 1 ? seated.map((model) => ({ model, task: 'rebuttal' as const, kind })) : []),
    { model: models.judge, task: 'judge', kind },
    { model: models.classifier, task: 'classifier' },
  ];
}

/**
 * How the figures were made, for the response's `note`: the stated interval, and which answers' lengths were
 * learnt here and which came from the default table.
 */
function noteOf(simulated: boolean, cached: boolean, basis: CostEstimate['basis']): string {
  const learnt = basis.filter((b) => b.samples > 0);
  const { low, high } = INTERVAL_PERCENTILES;
  const parts = [
    simulated
      ? 'Simulated: no provider key is configured, so the debate runs on the simulated model and costs 0 USD.'
      : 'USD at the provider table’s list prices.',
    'Tokens at 4 characters each, of the prompts the engine would send (question, context, documents or ' +
      'evidence passages, panel, every turn each round quotes, the judge’s transcript) and of the answers at ' +
      `the lengths learnt from this installation’s last ${LEARNT_FROM_LAST} calls of each model and task ` +
      `(once there are ${LEARNT_AT_LEAST}; before, a default table whose interval spans a sentence to the ` +
      `limit). expected: every answer at its average length; low and high: every answer at the ${low}th and ` +
      `${high}th percentile of its lengths, the stated interval. One judge call (a retry is outside it); ` +
      'moderator notes and pages fetched later add to it.',
    `Learnt: ${learnt.length} of ${basis.length} model tasks${
      learnt.length > 0
        ? ` (${learnt.map((b) => `${b.model} ${b.task}: ${b.samples} calls`).join('; ')})`
        : ''
    }.`,
  ];
  if (cached) parts.push('An identical recent debate would answer instead: nothing is charged or run.');
  return parts.join(' ');
}
