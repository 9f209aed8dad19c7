import { CLASSIFIER_SYSTEM } from '../runner/classify.ts';
import type { FakeRequest } from './fake-llm-server.ts';

/** Which debate seat and round a provider request speaks for; null for the judge. */
export type DebaterTurnRef = { question: string; agent: string; round: number };

/**
 * Reads the seat and round out of a debater request (the prompts of engine/prompts.ts), whatever wire
 * protocol carried it: fault tests use it to prove a stored turn is never requested again.
 */
export function debaterTurnOf(request: Pick<FakeRequest, 'body'>): DebaterTurnRef | null {
  const text = JSON.stringify(request.body);
  const agent = /You are ([^,]+), the /.exec(text)?.[1];
  const question = /Question: (.*?)\\n/.exec(text)?.[1];
  if (!agent || !question) return null;
  const previous = /Round (\d+) arguments:/.exec(text)?.[1];
  return { question, agent, round: previous ? Number(previous) + 1 : 1 };
}

export const turnRefKey = (ref: { agent: string; round: number }) => `${ref.round}:${ref.agent}`;

/** Whether a request to the fake provider is a debate's classification (not a debater's turn or the judge). */
export const isClassification = (request: Pick<FakeRequest, 'body'>) =>
  JSON.stringify(request.body).includes(CLASSIFIER_SYSTEM.slice(0, 40));
