import { DebateDomain } from '@verdict/contracts';
import { DEBATE_CALL_LIMITS } from '@verdict/core';
import { Effect } from 'effect';
import type { LlmProvider } from '../providers/port.ts';
import { debateSpan } from '../tracing/spans.ts';
import { type CallPolicy, callLlm } from './llm-call.ts';

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

/** A classification: the domain, and the call that found it (none when the call failed). */
export type Classification = {
  readonly domain: DebateDomain;
  readonly call: {
    readonly model: string;
    readonly inputTokens: number;
    readonly outputTokens: number;
  } | null;
};

/**
 * The domain of a debate's question, asked once of the classifier task's model (routed like every task). A
 * failed call gives `other` rather than failing a debate. The call's tokens are the caller's to count: it runs
 * beside the judge, and the debate counts them once it is over (a snapshot taken meanwhile must not hold
 * them, or a restored debate, which asks again, would count them twice).
 */
export const classifyDomain = (
  provider: LlmProvider,
  model: string,
  question: string,
  policy: CallPolicy,
): Effect.Effect<Classification> =>
  callLlm(
    provider,
    {
      task: 'classifier',
      model,
      system: CLASSIFIER_SYSTEM,
      prompt: question,
      maxTokens: DEBATE_CALL_LIMITS.classifier.maxOutputTokens,
      json: false,
    },
    policy,
  ).pipe(
    Effect.map((response): Classification => ({ domain: domainIn(response.text), call: response })),
    Effect.catch(() => Effect.succeed<Classification>({ domain: 'other', call: null })),
    debateSpan('debate.classify', {}),
  );
