import { z } from 'zod';
import { EvidenceMode, KeyEvidence } from './evidence.ts';

export const DebateMode = z.enum(['fast', 'balanced', 'thorough']);
export type DebateMode = z.infer<typeof DebateMode>;

export const DebateStatus = z.enum(['pending', 'running', 'paused', 'completed', 'failed']);
export type DebateStatus = z.infer<typeof DebateStatus>;

/**
 * Agents, rounds and credits per mode (v1 guide): the one table of what a mode is and costs on hosted keys.
 * `agentCount` 2–7 and `maxRounds` 1–5 override the panel; `debateCredits` says what that does to the price.
 */
export const MODE_PANEL: Record<DebateMode, { agents: number; rounds: number; credits: number }> = {
  fast: { agents: 3, rounds: 1, credits: 1 },
  balanced: { agents: 5, rounds: 2, credits: 3 },
  thorough: { agents: 8, rounds: 3, credits: 8 },
};

/** Credits for a comparison (`compare`), whatever its mode. */
export const COMPARE_CREDITS = 5;

/**
 * Agent-turns (agents × rounds) one credit buys past a mode's own panel: the rate the three modes share
 * (3 turns for 1, 10 for 3, 24 for 8, rounded down), so a mode's own panel costs exactly the mode's price.
 */
export const AGENT_TURNS_PER_CREDIT = 3;

/**
 * What a debate costs in credits on hosted keys. The spec prices by mode, so a debate never costs less than
 * its mode's price (or a comparison's): an override may make the panel smaller, and it still costs that.
 * An override may also make the panel larger than the mode's, and then the debate costs what a panel of its
 * size costs at the modes' shared rate, ⌊agents × rounds ÷ 3⌋: a larger panel is never bought at a smaller
 * mode's price.
 *
 * @example
 * debateCredits({ mode: 'fast', agents: 3, rounds: 1 }) // 1, fast's price
 * debateCredits({ mode: 'fast', agents: 7, rounds: 5 }) // 11: 35 agent-turns
 * debateCredits({ mode: 'thorough', agents: 2, rounds: 1 }) // 8, thorough's price
 */
export function debateCredits(debate: {
  mode: DebateMode;
  agents: number;
  rounds: number;
  compare?: boolean;
}): number {
  const floor = debate.compare ? COMPARE_CREDITS : MODE_PANEL[debate.mode].credits;
  return Math.max(floor, Math.floor((debate.agents * debate.rounds) / AGENT_TURNS_PER_CREDIT));
}

/**
 * What a list of someone's picks (a chain, a collection) shows of each debate: the one summary shape.
 * No schema id of its own: each list names its summary (ChainDebateSummary, CollectionDebateSummary).
 */
export const DebateSummary = z.object({
  id: z.uuid(),
  question: z.string(),
  status: DebateStatus,
  mode: DebateMode.nullable(),
  createdAt: z.iso.datetime(),
});
export type DebateSummary = z.infer<typeof DebateSummary>;

export const Recommendation = z.enum([
  'PROCEED',
  'RECONSIDER',
  'REJECT',
  'DEFER',
  'MORE_INFO_NEEDED',
  'SPLIT_DECISION',
]);
export type Recommendation = z.infer<typeof Recommendation>;

/**
 * Confidence as the spec's public forms show it: a whole-number percent. Stored and on the debate object it
 * is 0–1; /v1 verdicts and the stream use this.
 *
 * @example
 * confidencePercent(0.644) // 64
 */
export const confidencePercent = (fraction: number) => Math.min(100, Math.max(0, Math.round(fraction * 100)));

export const Stance = z.enum(['for', 'against', 'mixed']);
export type Stance = z.infer<typeof Stance>;

/**
 * One row of the decision matrix: an option scored against one criterion, 0 (worst) to 10 (best).
 *
 * @example
 * { option: 'Raise prices', criterion: 'Revenue impact', score: 7, rationale: 'Margin +12% at flat volume' }
 */
export const DecisionMatrixRow = z
  .object({
    option: z.string().min(1),
    criterion: z.string().min(1),
    score: z.number().min(0).max(10),
    rationale: z.string(),
  })
  .meta({ id: 'DecisionMatrixRow' });
export type DecisionMatrixRow = z.infer<typeof DecisionMatrixRow>;

export const AgentArgument = z.object({
  agent: z.string(),
  stance: z.string(),
  keyPoints: z.array(z.string()),
});
export type AgentArgument = z.infer<typeof AgentArgument>;

/**
 * How a verdict's calibrated confidence was made (ARCHITECTURE.md, "Calibrated confidence"): Platt scaling
 * fitted on the owner's resolved outcomes, shrunk toward a global curve; `scope` says whether the curve was
 * the debate's domain's or the owner's overall, `basedOn` how many resolved outcomes it was fitted on.
 */
export const VerdictCalibration = z
  .object({
    method: z.literal('platt-shrinkage'),
    basedOn: z.number().int().min(0),
    scope: z.enum(['domain', 'owner']),
  })
  .meta({ id: 'VerdictCalibration' });
export type VerdictCalibration = z.infer<typeof VerdictCalibration>;

/** The calibrated confidence beside the judge's own, 0–1; absent below the owner's minimum of outcomes. */
const calibratedConfidence = z.number().min(0).max(1).meta({
  description: "The judge's confidence corrected by the owner's outcomes, 0–1; absent when not calibrated",
});

/** How far the panel agreed after one round: 0 (no two agents agree) to 1 (all agree), ARCHITECTURE.md's formula. */
export const ConvergencePoint = z
  .object({ round: z.number().int().min(1), score: z.number().min(0).max(1) })
  .meta({ id: 'ConvergencePoint' });
export type ConvergencePoint = z.infer<typeof ConvergencePoint>;

/** Early stop's default threshold, and its bounds: below one half, a bare majority would stop a debate. */
export const DEFAULT_CONVERGENCE_THRESHOLD = 0.8;
export const MIN_CONVERGENCE_THRESHOLD = 0.5;

/** Why a debate ran fewer rounds than planned: its positions converged at or above the threshold. */
export const StoppedEarly = z
  .object({
    afterRound: z.number().int().min(1),
    plannedRounds: z.number().int().min(1),
    convergence: z.number().min(0).max(1),
    threshold: z.number().min(MIN_CONVERGENCE_THRESHOLD).max(1),
  })
  .meta({ id: 'StoppedEarly' });
export type StoppedEarly = z.infer<typeof StoppedEarly>;

/** The full verdict of the public /v1 form. `confidence` here is 0–1; the /v1 and stream views scale it. */
export const Verdict = z
  .object({
    recommendation: Recommendation,
    oneLiner: z.string().min(1).max(300),
    confidence: z.number().min(0).max(1),
    /** Added by the engine after the judge answered (never taken from the judge's answer). */
    calibratedConfidence: calibratedConfidence.optional(),
    calibration: VerdictCalibration.optional(),
    narrative: z.string().min(1),
    arguments: z.array(AgentArgument),
    /**
     * With the evidence engine on, built by the engine from verified citations (CitedEvidence); off, as
     * the judge wrote it (JudgedEvidence).
     */
    keyEvidence: z.array(KeyEvidence),
    decisionMatrix: z.array(DecisionMatrixRow),
    nextSteps: z.array(z.string()),
    revisitTriggers: z.array(z.string()),
    /** Agents whose turns were missing because their provider failed for good. */
    missingAgents: z.array(z.string()).default([]),
    /** The panel's convergence after each round it spoke (absent on verdicts stored before it was measured). */
    convergence: z.array(ConvergencePoint).optional(),
    /** Set when the debate stopped before its last round because the positions converged. */
    stoppedEarly: StoppedEarly.optional(),
    /**
     * Whether the evidence engine grounded the debate: on, the agents read retrieved passages and cite
     * them; off (plans without it), attachments went into prompts as excerpts. Absent on verdicts stored
     * before the evidence engine.
     */
    evidence: EvidenceMode.optional(),
  })
  .meta({ id: 'Verdict' });
export type Verdict = z.infer<typeof Verdict>;

/**
 * What a debate cost. Tokens are summed over every LLM call (debaters, judge, classifier); `estimatedUsd` uses
 * the list price of each model, exact to the nanodollar: the sum of the calls GET /api/debates/:id/cost lists;
 * `credits` is what the caller was charged (0 on BYOK).
 */
export const DebateCost = z
  .object({
    inputTokens: z.number().int().min(0),
    outputTokens: z.number().int().min(0),
    estimatedUsd: z.number().min(0),
    credits: z.number().int().min(0),
    llmCalls: z.number().int().min(0),
  })
  .meta({ id: 'DebateCost' });
export type DebateCost = z.infer<typeof DebateCost>;
