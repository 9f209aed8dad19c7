import type { DebateObject, Verdict } from '@verdict/contracts';
import type { Debate } from './debate.entity.ts';
import { type Disclosure, INSIDER } from './debate-access.ts';

/**
 * The spec's debate object: counts, verdict and cost only once the debate completed; the cost only as far as
 * `shows` says (debate-access.ts, disclosureTo), always for its creator and workspace.
 */
export function toDebateObject(debate: Debate, shows: Disclosure = INSIDER): DebateObject {
  const completed = debate.status === 'completed';
  return {
    id: debate.id,
    question: debate.question,
    status: debate.status,
    mode: debate.mode ?? null,
    fundingSource: debate.fundingSource,
    isPublic: debate.isPublic,
    agentCount: completed ? (debate.agentCount ?? null) : null,
    roundCount: completed ? (debate.roundCount ?? null) : null,
    createdAt: debate.createdAt.toISOString(),
    completedAt: debate.completedAt ? debate.completedAt.toISOString() : null,
    ownerId: debate.owner.id,
    workspaceId: debate.workspace?.id ?? null,
    verdict:
      completed && debate.verdict
        ? {
            recommendation: debate.verdict.recommendation,
            confidence: debate.verdict.confidence,
            ...calibrationOf(debate.verdict),
            summary: debate.verdict.oneLiner,
            agentsUsed: debate.agentsUsed ?? [],
            totalRounds: debate.roundCount ?? 0,
            ...(debate.verdict.convergence ? { convergence: debate.verdict.convergence } : {}),
            ...(debate.verdict.stoppedEarly ? { stoppedEarly: debate.verdict.stoppedEarly } : {}),
          }
        : null,
    cost: completed && shows.cost ? (debate.cost ?? null) : null,
  };
}

/** A verdict's calibrated confidence and how it was made, when the engine calibrated it; nothing otherwise. */
export function calibrationOf(verdict: Pick<Verdict, 'calibratedConfidence' | 'calibration'>) {
  return verdict.calibratedConfidence !== undefined && verdict.calibration
    ? { calibratedConfidence: verdict.calibratedConfidence, calibration: verdict.calibration }
    : {};
}
