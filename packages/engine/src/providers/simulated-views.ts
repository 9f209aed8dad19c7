import type { TurnPosition } from '@verdict/contracts';

/** What the simulated debater and judge share: their label and what a position comes down on. */
export const SIMULATED_LABEL = '[simulated]';

/** The view each seat lean argues for on its own; the judge reads a speaker with no readable position by it. */
export const LEAN_VIEW = {
  for: { recommendation: 'PROCEED', stance: 'for' },
  against: { recommendation: 'REJECT', stance: 'against' },
  mixed: { recommendation: 'RECONSIDER', stance: 'mixed' },
} as const;

/**
 * What a position comes down on: a comparison's first-ranked option letter, otherwise its recommendation;
 * null when it says neither. A letter and a recommendation never collide, so one tally holds both kinds.
 */
export const viewOf = (position: TurnPosition | null | undefined): string | null =>
  position?.ranking?.[0] ?? position?.recommendation ?? null;
