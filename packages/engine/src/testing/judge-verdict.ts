import type { Verdict } from '@verdict/contracts';

/** A verdict as the judge writes it: the engine adds `missingAgents` itself. */
export type JudgeVerdict = Omit<Verdict, 'missingAgents'>;

const JUDGE_VERDICT: JudgeVerdict = {
  recommendation: 'PROCEED',
  oneLiner: 'Go ahead with a pilot.',
  confidence: 0.72,
  narrative: 'Most of the panel found the pilot cheap to undo.',
  arguments: [{ agent: 'Advocate', stance: 'for', keyPoints: ['Cheap to undo'] }],
  keyEvidence: [],
  decisionMatrix: [],
  nextSteps: ['Run a 6-week pilot'],
  revisitTriggers: ['Ticket backlog grows 20%'],
};

/**
 * The text a fake provider's judge answers with: a verdict the judge parser accepts, with `overrides`
 * replacing whole fields. A test that asserts a field of the stored verdict passes it here, so the value it
 * checks is written where it checks it.
 */
export const judgeVerdictJson = (overrides: Partial<JudgeVerdict> = {}): string =>
  JSON.stringify({ ...JUDGE_VERDICT, ...overrides });
