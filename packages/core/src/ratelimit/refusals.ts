import { RateBudget } from '@verdict/contracts';

/**
 * What a 429 refused for: one of the rate budgets, or a debate limit of the account's plan (its free debates
 * of the month, its debates at once, its credits: QUOTA_EXCEEDED, a 429 on /api).
 */
export type LimitKind = RateBudget | 'monthlyDebates' | 'concurrentDebates' | 'credits';

/** Every limit kind, for a counter that shows each from the start. */
export const LIMIT_KINDS: readonly LimitKind[] = [
  ...RateBudget.options,
  'monthlyDebates',
  'concurrentDebates',
  'credits',
];

const listeners = new Set<(kind: LimitKind) => void>();

/**
 * Hears every refusal for a limit made in this process, from where it is decided (the rate limiters, the
 * debate limits), whatever route or transport answers it. Returns the function that stops listening.
 */
export function onLimitRefusal(listener: (kind: LimitKind) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells the listeners a request is being refused for `kind`. */
export function noteLimitRefusal(kind: LimitKind) {
  for (const listener of listeners) listener(kind);
}
