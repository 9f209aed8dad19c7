import { DebateDomain } from '@verdict/contracts';
import { Effect } from 'effect';
import type { LlmProvider } from '../providers/port.ts';
import { type CallPolicy, callLlm } from './llm-call.ts';
import { addCall, type Usage } from './usage.ts';

/** The classifier's instructions (tests recognise its requests by them). */
export const CLASSIFIER_SYSTEM = `You sort decisions into one subject area. Answer with exactly one word from this list: ${DebateDomain.options.join(', ')}.`;

/** The first category named in an answer, or `other`: a classification never fails a debate. */
export function domainIn(text: string): DebateDomain {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return (
    (words.find((word) => (DebateDomain.options as readonly string[]).includes(word)) as DebateDomain) ??
    'other'
  );
}

/**
 * The domain of a completed debate's question, asked once of the classifier task's model (routed like every
 * task). Its tokens count in the debate's usage; a failed call gives `other` rather than failing a debate
 * whose verdict is already in hand.
 */
export const classifyDomain = (
  provider: LlmProvider,
  model: string,
  question: string,
  usage: Usage,
  policy: CallPolicy,
): Effect.Effect<DebateDomain> =>
  callLlm(
    provider,
    { task: 'classifier', model, system: CLASSIFIER_SYSTEM, prompt: question, maxTokens: 8, json: false },
    policy,
  ).pipe(
    Effect.map((response) => {
      addCall(usage, response);
      return domainIn(response.text);
    }),
    Effect.catch(() => Effect.succeed<DebateDomain>('other')),
  );
