import type { CreateDebateInput as CreateDebateBody } from '@verdict/sdk';
import { useEffect, useState } from 'react';
import { data, messageOf, rest, type Schemas } from '../../../lib/api.ts';
import { CreateDebateInput } from '../../../lib/contracts.ts';

type Body = CreateDebateBody;
type Estimate = Schemas['DebateEstimate'];

/** How long the form waits after the last change before asking the price: typing asks once, not per key. */
const SETTLE_MS = 300;

type Priced =
  | { state: 'incomplete'; field: string }
  | { state: 'asking' }
  | { state: 'priced'; estimate: Estimate }
  | { state: 'failed'; message: string };

/**
 * What the API's estimate says this exact body would run and charge: asked again whenever the body
 * changes, once it settles; a body the contract refuses is not asked about (the form says what is missing).
 */
export function useDebateEstimate(body: Body): Priced {
  const [priced, setPriced] = useState<Priced>({ state: 'incomplete', field: 'question' });
  const key = JSON.stringify(body);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the body, compared by value
  useEffect(() => {
    const valid = CreateDebateInput.safeParse(body);
    if (!valid.success) {
      setPriced({ state: 'incomplete', field: String(valid.error.issues[0]?.path[0] ?? '') });
      return;
    }
    setPriced({ state: 'asking' });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      data(rest.POST('/api/debates/estimate', { body, signal: controller.signal })).then(
        (estimate) => setPriced({ state: 'priced', estimate }),
        (error: unknown) => {
          if (!controller.signal.aborted) setPriced({ state: 'failed', message: messageOf(error) });
        },
      );
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key]);
  return priced;
}

const QUESTION_MIN = CreateDebateInput.shape.question.minLength;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The panel that will run and what it will cost, as the estimate of the body the form will send says. */
export function EstimateLine({ priced, id }: { priced: Priced; id: string }) {
  return (
    <p id={id} className="estimate" role="status" aria-live="polite">
      {lineOf(priced)}
    </p>
  );
}

function lineOf(priced: Priced): string {
  switch (priced.state) {
    case 'incomplete':
      return priced.field === 'question'
        ? `Enter a question of at least ${QUESTION_MIN} characters to see what the debate costs.`
        : 'Check the agents and rounds to see what the debate costs.';
    case 'asking':
      return 'Working out what this debate costs…';
    case 'failed':
      return `Cannot price this debate: ${priced.message}`;
    case 'priced': {
      const { estimate } = priced;
      const panel = `Runs ${plural(estimate.agents, 'agent')} × ${plural(estimate.rounds, 'round')}.`;
      return `${panel} ${costOf(estimate)}`;
    }
  }
}

function costOf(estimate: Estimate): string {
  if (estimate.cached) return 'An identical debate of yours finished recently: it answers instead, free.';
  if (estimate.refusal) return `${estimate.refusal.message}: it cannot start now.`;
  switch (estimate.fundingSource) {
    case 'byok':
      return 'Runs on your own provider keys: no credits.';
    case 'free_tier':
      return "Free: one of this month's free-plan debates (on a lighter judge).";
    default:
      return `Costs ${plural(estimate.charge, 'credit')}.`;
  }
}
