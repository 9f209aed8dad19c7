import type { Verdict } from '@verdict/contracts';
import { DEBATE_CALL_LIMITS } from '@verdict/core';
import * as Effect from 'effect/Effect';
import { fromPromise } from 'xstate';
import { DebateFailure, type JudgeInput } from '../machine/machine.ts';
import { JUDGE_SYSTEM_PROMPT, judgePrompt } from '../machine/prompts.ts';
import { parseVerdict } from '../machine/verdict-parser.ts';
import { debateSpan } from '../tracing/spans.ts';
import type { ActorShared } from './actor-shared.ts';
import { type CallPolicy, callLlm } from './llm-call.ts';
import type { EngineDeps } from './run-debate.ts';

/** Re-asks after the first invalid verdict; the debate fails if the judge still answers nonsense. */
const JUDGE_ATTEMPTS = DEBATE_CALL_LIMITS.judge.attempts;

/** The debate machine's `judge` actor: the verdict from the judge's model, asked again while it answers nonsense. */
export const judgeActor = ({ deps, policy, count, services }: ActorShared) =>
  fromPromise<Verdict, JudgeInput>(({ input, signal }) =>
    Effect.runPromiseWith(services)(judgeProgram(input, deps, policy, count), {
      signal,
    }),
  );

function judgeProgram(input: JudgeInput, deps: EngineDeps, policy: CallPolicy, count: ActorShared['count']) {
  return Effect.gen(function* () {
    let prompt = judgePrompt(input.brief, input.seats, input.turns, input.missing);
    for (let attempt = 1; attempt <= JUDGE_ATTEMPTS; attempt++) {
      const response = yield* callLlm(
        deps.provider,
        {
          task: 'synthesizer',
          model: deps.judgeModel,
          system: JUDGE_SYSTEM_PROMPT,
          prompt,
          maxTokens: DEBATE_CALL_LIMITS.judge.maxOutputTokens,
          json: true,
        },
        policy,
      ).pipe(
        Effect.mapError(
          (failure) =>
            new DebateFailure(
              failure.kind === 'timeout' ? 'PROVIDER_TIMEOUT' : 'PROVIDER_ERROR',
              `The judge's provider failed: ${failure.message}`,
              { cause: failure },
            ),
        ),
      );
      count(response, 'judge');
      const parsed = parseVerdict(response.text, input.missing);
      if (parsed.ok) return deps.calibrate ? yield* deps.calibrate(parsed.verdict) : parsed.verdict;
      prompt = `${prompt}\n\nYour previous answer was not a valid verdict (${parsed.problem}). Answer again with the JSON object only.`;
    }
    return yield* Effect.fail(new DebateFailure('PROVIDER_ERROR', 'The judge returned no valid verdict'));
  }).pipe(debateSpan('debate.judge', {}));
}
