import type { EntityManager } from '@mikro-orm/core';
import { type DebateMode, type FundingSource, PLANS, Plan } from '@verdict/contracts';
import { sql } from 'kysely';
import { chooseFunding, type FundingRoute } from '../../billing/funding.ts';
import { currentTraceCarrier } from '../../bus/trace-carrier.ts';
import { query } from '../../db/kysely.ts';
import { prepared } from '../../db/prepared-statements.ts';
import { storedPreset } from '../../routing/debate-models.ts';
import { AppError } from '../../shared/app-error.ts';
import { concurrentLimitError } from './funding.ts';
import type { DebateRequest, Panel } from './request.ts';
import type { CreationResources } from './resources.ts';

/** What paying for the debate comes to in one case: who pays, how much, and the preset stored with it. */
type Paid = { source: FundingSource; charge: number; preset: string | null } | { refuse: true };
/** One plan and balance's case; split by whether the free tier has debates left when that decides it. */
type FundingCase = Paid | { freeLeft: Paid; freeUsed: Paid };
/** Per plan: its evidence engine, and the case when the balance covers the debate and when it falls short. */
type PlanCases = { evidence: boolean; covers: FundingCase; short: FundingCase };

/** What the funding cases depend on (funding.ts#FundingAsk is the locked payer's ask). */
type CasesAsk = { credits: number; hasProviderKeys: boolean; route: FundingRoute; preset: string | null };

/**
 * The funding rules (billing/funding.ts) worked out for every plan and case `open_debate` can meet, so the
 * database decides by looking its account's case up while holding the account's lock. Depends only on the
 * ask and the settings, so each distinct ask is worked out once.
 */
function planCases({ config }: CreationResources, ask: CasesAsk): Record<Plan, PlanCases> {
  const paid = (plan: Plan, balance: number, used: number): Paid => {
    try {
      const funding = chooseFunding({
        plan,
        balance,
        credits: ask.credits,
        hasProviderKeys: ask.hasProviderKeys,
        freeTier: { used, monthly: config.debates.freeMonthly },
        route: ask.route,
        upgradeUrl: '',
        quiet: true,
      });
      return { ...funding, preset: storedPreset(ask.preset, funding.source) };
    } catch (error) {
      if (error instanceof AppError) return { refuse: true };
      throw error;
    }
  };
  const caseOf = (plan: Plan, balance: number): FundingCase => {
    const freeLeft = paid(plan, balance, 0);
    const freeUsed = paid(plan, balance, config.debates.freeMonthly);
    return JSON.stringify(freeLeft) === JSON.stringify(freeUsed) ? freeLeft : { freeLeft, freeUsed };
  };
  return Object.fromEntries(
    Plan.options.map((plan) => [
      plan,
      {
        evidence: PLANS[plan].features.evidence,
        covers: caseOf(plan, ask.credits),
        short: caseOf(plan, ask.credits - 1),
      },
    ]),
  ) as Record<Plan, PlanCases>;
}

const casesByAsk = new Map<string, string>();
/**
 * planCases as JSON, kept per distinct ask and free-tier allowance (a handful: modes × routes × presets ×
 * BYOK or not; the allowance is a setting, but two cores of one process, as in the tests, may differ).
 */
function planCasesJson(resources: CreationResources, ask: CasesAsk): string {
  const key = JSON.stringify([ask, resources.config.debates.freeMonthly]);
  let cases = casesByAsk.get(key);
  if (cases === undefined) {
    if (casesByAsk.size >= 1000) casesByAsk.clear();
    cases = JSON.stringify(planCases(resources, ask));
    casesByAsk.set(key, cases);
  }
  return cases;
}

export type Opening = {
  debateId: string;
  request: DebateRequest;
  /** Whose plan and credits pay: the creator's, or the workspace owner's. */
  payerId: string;
  mode: DebateMode;
  panel: Panel;
  credits: number;
  workspaceId: string | null;
  at: Date;
};

type Answer =
  | { outcome: 'created'; plan: Plan; fundingSource: FundingSource }
  | { outcome: 'refused'; reason: 'USER_NOT_FOUND' }
  | { outcome: 'refused'; reason: 'CONCURRENT_LIMIT'; active: number }
  | { outcome: 'refused'; reason: 'FUNDING'; plan: Plan; balance: number; freeUsed: number | null };

/**
 * Writes a new debate in one statement (`open_debate`, migration 0037): the accounts locked, the concurrent
 * limit, the funding, the debit and its ledger entry, the debate and its `debate.created` webhook. Outside a
 * transaction it is one of its own; inside one (a workspace's checks, an Idempotency-Key, the scheduler's)
 * it joins it. A refusal raises the error the rules raise, with nothing written.
 */
export async function openDebate(
  resources: CreationResources,
  em: EntityManager,
  opening: Opening,
): Promise<{ plan: Plan; fundingSource: FundingSource }> {
  const { request, at } = opening;
  const monthStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const ask: CasesAsk = {
    credits: opening.credits,
    hasProviderKeys: request.providerKeys !== null,
    route: request.route,
    preset: request.preset,
  };
  const fields = JSON.stringify({
    ownerId: request.ownerId,
    payerId: opening.payerId,
    debateId: opening.debateId,
    at: at.toISOString(),
    concurrentLimit: resources.config.debates.concurrentLimit,
    credits: opening.credits,
    freeMonthly: resources.config.debates.freeMonthly,
    monthStart: monthStart.toISOString(),
    ledgerNote: `${opening.mode} debate`,
    question: request.question,
    context: request.context,
    mode: opening.mode,
    agents: opening.panel.agents,
    rounds: opening.panel.rounds,
    routing: request.routing ?? undefined,
    earlyStopThreshold: request.earlyStop?.threshold ?? null,
    compareOptions: request.compare ? (request.compareOptions ?? undefined) : undefined,
    forkedFromId: request.forkedFromId ?? null,
    workspaceId: opening.workspaceId,
    created: {
      debateId: opening.debateId,
      status: 'pending',
      mode: opening.mode,
      question: request.question,
    },
    traceParent: currentTraceCarrier()?.traceparent ?? null,
  });
  // The cases are kept as JSON: joined to the rest as text rather than parsed and written again.
  const body = `${fields.slice(0, -1)},"plans":${planCasesJson(resources, ask)}}`;
  const { rows } = await prepared(
    'open_debate',
    sql<{ answer: Answer }>`select open_debate(${body}::jsonb) as answer`,
  ).execute(query(em));
  const answer = rows[0]?.answer;
  if (answer?.outcome === 'created') return { plan: answer.plan, fundingSource: answer.fundingSource };
  if (!answer) throw new Error('open_debate answered nothing');
  if (answer.reason === 'USER_NOT_FOUND') throw new AppError('USER_NOT_FOUND', 'User not found');
  if (answer.reason === 'CONCURRENT_LIMIT') throw concurrentLimitError(answer.active, resources.config);
  // The rules again on the facts the database decided by: they raise the refusal, counted as one.
  chooseFunding({
    plan: answer.plan,
    balance: answer.balance,
    credits: opening.credits,
    hasProviderKeys: ask.hasProviderKeys,
    freeTier: { used: answer.freeUsed ?? 0, monthly: resources.config.debates.freeMonthly },
    route: request.route,
    upgradeUrl: resources.upgradeUrl,
  });
  throw new Error(`open_debate refused funding the rules accept (plan ${answer.plan})`);
}
