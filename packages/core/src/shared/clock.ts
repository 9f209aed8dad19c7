/** Time as a dependency, so time-dependent logic is testable without sleeping. */
export type Clock = { now: () => number };

export const systemClock: Clock = { now: () => Date.now() };
