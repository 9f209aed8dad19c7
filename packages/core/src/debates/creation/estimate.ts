import type { DebateEstimate, FundingSource } from '@verdict/contracts';
import type { Funding } from '../../billing/funding.ts';
import { estimateDebateCost } from '../../routing/cost-estimate.ts';
import { debateModelsFor, storedPreset } from '../../routing/debate-models.ts';
import { RoutingError } from '../../routing/models.ts';
import { AppError } from '../../shared/app-error.ts';
import { cachedAnswer } from './answer-cache.ts';
import { creditsOf, modeOf, panelFor } from './create.ts';
import { fundingOf, payerFor } from './funding.ts';
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
  return async (request: DebateRequest): Promise<DebateEstimate> => {
    const now = new Date(clock.now());
    const decided = await db.em().transactional(async (em) => {
      const { payer, workspace } = await payerFor(resources, em, request);
      await request.alsoCheck?.(em);
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
      return { mode, panel, cached: cached !== null, credits, funding, refusal };
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
    const cost = estimateDebateCost({
      question: request.question,
      context: request.context,
      agents: decided.panel.agents,
      rounds: decided.panel.rounds,
      models,
    });
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
      note: noteOf(models.simulated, decided.cached),
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

function noteOf(simulated: boolean, cached: boolean): string {
  const parts = [
    simulated
      ? 'Simulated: no provider key is configured, so the debate runs on the simulated model and costs 0 USD.'
      : 'USD at the provider table’s list prices; tokens at 4 characters each. low: every answer one token, ' +
        'prompts only the question; expected: answers at half their limit, one judge call; high: every answer ' +
        'at its limit and every judge retry. Attachments and moderator notes add to every prompt.',
  ];
  if (cached) parts.push('An identical recent debate would answer instead: nothing is charged or run.');
  return parts.join(' ');
}
