import { claimIdOf } from '@verdict/contracts';
import { CHARS_PER_TOKEN, DEBATE_CALL_LIMITS, PROMPT_OVERHEAD_TOKENS } from '@verdict/core';
import { describe, expect, it } from 'vitest';
import { seatPanel } from '../machine/panel.ts';
import {
  type CitableTurn,
  debaterPrompt,
  debaterSystemPrompt,
  JUDGE_SYSTEM_PROMPT,
  judgePrompt,
} from '../machine/prompts.ts';
import { CLASSIFIER_SYSTEM } from './classify.ts';

/**
 * The cost estimate (core routing/cost-estimate.ts) counts each prompt as its question, context and quoted
 * turns plus a fixed overhead: the template, the system prompt and the request's framing. Here the real
 * templates are held within that overhead, framed as a request body (what a provider counts, and what the
 * fake LLM server counts tokens of), for the largest panel and the longest answers.
 */
const tokensOf = (system: string, prompt: string, model = 'anthropic:claude-sonnet-5-5') =>
  Math.ceil(
    JSON.stringify({
      model,
      max_tokens: DEBATE_CALL_LIMITS.judge.maxOutputTokens,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: prompt },
      ],
    }).length / CHARS_PER_TOKEN,
  );

const question = 'Q'.repeat(2000);
const context = 'C'.repeat(5000);
const brief = { question, context };
const briefTokens =
  Math.ceil(question.length / CHARS_PER_TOKEN) + Math.ceil(context.length / CHARS_PER_TOKEN);
const seats = seatPanel(7, ['anthropic:claude-sonnet-5-5']);
const answer = 'a'.repeat(DEBATE_CALL_LIMITS.debater.maxOutputTokens * CHARS_PER_TOKEN);
const answerTokens = DEBATE_CALL_LIMITS.debater.maxOutputTokens;
/** A full round as the next round's prompt quotes it: each turn under its claimId (a citation's target). */
const turnsOf = (round: number): CitableTurn[] =>
  seats.map((seat) => ({
    agent: seat.name,
    round,
    content: answer,
    model: seat.model,
    targetAgent: null,
    position: null,
    claimId: claimIdOf({ attempt: 1, round, agent: seat.name }),
  }));

describe('the prompt overhead the cost estimate counts', () => {
  it("covers a debater's template and system prompt, in the first round and quoting a full round", () => {
    for (const seat of seats) {
      const opening = tokensOf(debaterSystemPrompt(seat), debaterPrompt(brief, 1, [], []));
      expect(opening).toBeLessThanOrEqual(briefTokens + PROMPT_OVERHEAD_TOKENS.debater);
      const rebuttal = tokensOf(debaterSystemPrompt(seat), debaterPrompt(brief, 2, turnsOf(1), []));
      const quoted = seats.length * (answerTokens + PROMPT_OVERHEAD_TOKENS.perTurn);
      expect(rebuttal).toBeLessThanOrEqual(briefTokens + quoted + PROMPT_OVERHEAD_TOKENS.debater);
    }
  });

  it("covers the judge's, with every turn of the longest debate and a retry's note", () => {
    const turns = [1, 2, 3, 4, 5].flatMap(turnsOf);
    const retry = `${judgePrompt(brief, seats, turns, [])}\n\nYour previous answer was not a valid verdict (it was not JSON). Answer again with the JSON object only.`;
    const quoted = turns.length * (answerTokens + PROMPT_OVERHEAD_TOKENS.perTurn);
    expect(tokensOf(JUDGE_SYSTEM_PROMPT, retry)).toBeLessThanOrEqual(
      briefTokens + quoted + PROMPT_OVERHEAD_TOKENS.judge,
    );
  });

  it("covers the classifier's", () => {
    expect(tokensOf(CLASSIFIER_SYSTEM, question)).toBeLessThanOrEqual(
      Math.ceil(question.length / CHARS_PER_TOKEN) + PROMPT_OVERHEAD_TOKENS.classifier,
    );
  });
});
