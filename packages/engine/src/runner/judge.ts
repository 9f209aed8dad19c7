import { claimIdOf, type Verdict } from '@verdict/contracts';
import { DEBATE_CALL_LIMITS, keyEvidenceFrom, type PassageText } from '@verdict/core';
import * as Effect from 'effect/Effect';
import * as Schedule from 'effect/Schedule';
import { DebateFailure, type JudgeInput } from '../machine/machine.ts';
import { JUDGE_SYSTEM_PROMPT, judgePrompt, type Turn } from '../machine/prompts.ts';
import { parseVerdict } from '../machine/verdict-parser.ts';
import { debateSpan } from '../tracing/spans.ts';
import type { ActorShared } from './actor-shared.ts';
import type { EngineDeps } from './engine-deps.ts';
import type { EvidencePort } from './evidence.ts';
import { type CallPolicy, callLlm } from './llm-call.ts';

/** Re-asks after the first invalid verdict; the debate fails if the judge still answers nonsense. */
const JUDGE_ATTEMPTS = DEBATE_CALL_LIMITS.judge.attempts;

/** What the machine's `judge` actor does for one debate (debate-actors.ts). */
export type Judge = (input: JudgeInput, signal: AbortSignal) => Promise<Verdict>;

/** The debate's judge: the verdict from the judge's model, asked again while it answers nonsense. */
export const judgeOf =
  ({ deps, policy, count, services, attempt }: ActorShared): Judge =>
  (input, signal) =>
    Effect.runPromiseWith(services)(judgeProgram(input, deps, policy, count, attempt), { signal });

function judgeProgram(
  input: JudgeInput,
  deps: EngineDeps,
  policy: CallPolicy,
  count: ActorShared['count'],
  debateAttempt: number,
) {
  return Effect.gen(function* () {
    const cited = yield* citedPassages(input.turns, deps.evidence);
    const titles =
      cited && new Map([...cited].map(([id, passage]) => [id, { ...passage, title: passage.source.title }]));
    let prompt = judgePrompt(input.brief, input.seats, input.turns, input.missing, titles ?? undefined);
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
      const parsed = parseVerdict(response.text, input.missing, cited === null);
      if (parsed.ok) {
        const grounded = groundedVerdict(parsed.verdict, input.turns, debateAttempt, cited);
        return deps.calibrate ? yield* deps.calibrate(grounded) : grounded;
      }
      prompt = `${prompt}\n\nYour previous answer was not a valid verdict (${parsed.problem}). Answer again with the JSON object only.`;
    }
    return yield* Effect.fail(new DebateFailure('PROVIDER_ERROR', 'The judge returned no valid verdict'));
  }).pipe(debateSpan('debate.judge', {}));
}

/** The passages the turns cited, read once for the judge's prompt and the key evidence; null when off. */
const citedPassages = (turns: readonly Turn[], evidence: EvidencePort | undefined) =>
  Effect.tryPromise(async () => {
    if (!evidence) return null;
    const ids = new Set(turns.flatMap((turn) => (turn.citations ?? []).map((c) => c.evidenceId)));
    return ids.size > 0 ? evidence.passages([...ids]) : new Map<string, PassageText>();
  }).pipe(Effect.retry(LOOKUP_RETRIES), Effect.orDie);

/** A failed read of the cited passages is tried again 3 times (100, 200, 400 ms) before the judging fails. */
const LOOKUP_RETRIES = { schedule: Schedule.exponential('100 millis'), times: 3 };

/**
 * The verdict as the engine finishes it: with the evidence engine on, its key evidence built from the
 * turns' verified citations in place of anything the judge wrote; off, as the judge wrote it. Either way
 * it says which.
 */
function groundedVerdict(
  verdict: Verdict,
  turns: readonly Turn[],
  attempt: number,
  cited: ReadonlyMap<string, PassageText> | null,
): Verdict {
  if (!cited) return { ...verdict, evidence: 'off' };
  const claims = turns.map((turn) => ({
    claimId: claimIdOf({ attempt, round: turn.round, agent: turn.agent }),
    citations: turn.citations ?? [],
  }));
  return { ...verdict, keyEvidence: keyEvidenceFrom(claims, cited), evidence: 'on' };
}
