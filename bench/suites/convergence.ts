import {
  DEFAULT_CONVERGENCE_THRESHOLD,
  type DebateMode,
  debateCredits,
  MODE_PANEL,
  unspokenRoundsRefund,
} from '@verdict/contracts';
import { seatPanel, simulatedProvider, startDebate } from '@verdict/engine';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const DEBATES = 100;
const SUBJECTS = [
  'a four-day week',
  'a rewrite in Rust',
  'a second office',
  'usage-based pricing',
  'a hiring freeze',
];
const MODELS = ['simulated/sonnet', 'simulated/haiku'];

/** The 100 questions: the same for every run, so figures compare from run to run. */
const questions = Array.from(
  { length: DEBATES },
  (_, i) => `Should we adopt ${SUBJECTS[i % SUBJECTS.length]} next quarter (case ${i + 1})?`,
);

type Totals = { rounds: number; tokens: number; credits: number; stopped: number };

/** One debate in process on the SIMULATED model: the rounds it spoke, its tokens and what it was charged. */
async function debate(question: string, mode: DebateMode, threshold: number | null) {
  const panel = MODE_PANEL[mode];
  const running = startDebate(
    {
      debateId: '00000000-0000-4000-8000-000000000000',
      question,
      context: null,
      mode,
      seats: seatPanel(panel.agents, MODELS),
      rounds: panel.rounds,
      earlyStop: threshold === null ? null : { threshold },
    },
    { provider: simulatedProvider(), judgeModel: 'simulated/opus', emit: () => {} },
  );
  const final = await running.done;
  const spoken = final.context.round;
  const charged = debateCredits({ mode, ...panel });
  return {
    rounds: spoken,
    tokens: running.usage.inputTokens + running.usage.outputTokens,
    credits: charged - unspokenRoundsRefund(charged, { spoken, planned: panel.rounds }),
    stopped: final.context.verdict?.stoppedEarly ? 1 : 0,
  };
}

async function totals(mode: DebateMode, threshold: number | null): Promise<Totals> {
  const sum: Totals = { rounds: 0, tokens: 0, credits: 0, stopped: 0 };
  for (const question of questions) {
    const one = await debate(question, mode, threshold);
    sum.rounds += one.rounds;
    sum.tokens += one.tokens;
    sum.credits += one.credits;
    sum.stopped += one.stopped;
  }
  return sum;
}

/**
 * What early stop saves per 100 debates at the default threshold, on the SIMULATED model only (the one
 * stand-in model: its agents drift towards a per-question view by a seeded rule, not by argument), so the
 * figures show the mechanism's reach, not what real models would save. The same 100 questions run with and
 * without early stop; balanced (5 agents × 2 rounds) and thorough (8 × 3). Deterministic: no timing.
 */
export const suite: Suite = {
  description: 'Early stop on convergence: rounds, tokens and credits saved per 100 simulated debates',
  optIn: true,
  run: async ({ log }: SuiteContext) => {
    const results: BenchResult[] = [];
    for (const mode of ['balanced', 'thorough'] as const) {
      const full = await totals(mode, null);
      const early = await totals(mode, DEFAULT_CONVERGENCE_THRESHOLD);
      log(`${mode}: ${early.stopped}/${DEBATES} stopped early`);
      const detail = (what: string) =>
        `${what}, per ${DEBATES} simulated ${mode} debates (${MODE_PANEL[mode].agents} agents × ${MODE_PANEL[mode].rounds} rounds), threshold ${DEFAULT_CONVERGENCE_THRESHOLD}: ${full.rounds} → ${early.rounds} rounds, ${full.tokens} → ${early.tokens} tokens, ${full.credits} → ${early.credits} credits; ${early.stopped} stopped early`;
      results.push(
        {
          name: `convergence.${mode}.rounds_saved_per_100`,
          value: full.rounds - early.rounds,
          unit: 'rounds',
          better: 'higher',
          detail: detail('Debate rounds not spoken'),
        },
        {
          name: `convergence.${mode}.tokens_saved_per_100`,
          value: full.tokens - early.tokens,
          unit: 'tokens',
          better: 'higher',
          detail: detail('LLM tokens (input + output, debaters and judge) not spent'),
        },
        {
          name: `convergence.${mode}.tokens_saved_share`,
          value: round((100 * (full.tokens - early.tokens)) / full.tokens, 1),
          unit: '%',
          better: 'higher',
          detail: detail('Share of the tokens saved'),
        },
        {
          name: `convergence.${mode}.credits_refunded_per_100`,
          value: full.credits - early.credits,
          unit: 'credits',
          better: 'higher',
          detail: detail('Credits refunded for unspoken rounds'),
        },
      );
    }
    return results;
  },
};
