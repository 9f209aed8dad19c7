import type { DebateOutcome } from '../store/records.ts';

/** A debate's cost as the engine stores it with an end. */
export const testCost = { inputTokens: 10, outputTokens: 20, estimatedUsd: 0.001, credits: 0, llmCalls: 4 };

type Completed = Extract<DebateOutcome, { status: 'completed' }>;

/** A completed end with a plain verdict, as a node would store it (`more` adds or replaces fields). */
export const completedOutcome = (more: Partial<Completed> = {}): Completed => ({
  status: 'completed',
  verdict: {
    recommendation: 'PROCEED',
    oneLiner: 'Go',
    confidence: 0.7,
    narrative: 'Because.',
    arguments: [],
    keyEvidence: [],
    decisionMatrix: [],
    nextSteps: [],
    revisitTriggers: [],
    missingAgents: [],
  },
  cost: testCost,
  agentCount: 3,
  roundCount: 2,
  agentsUsed: ['simulated/sonnet'],
  domain: 'business',
  ...more,
});
