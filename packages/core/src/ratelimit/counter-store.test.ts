import { describe, expect, it } from 'vitest';
import { sweepWindow } from './counter-store.ts';

describe('when a process sweeps expired counters', () => {
  it('from the expiry of the first counter it wrote to that of the last, and not before or after', () => {
    const sweeps = sweepWindow();
    expect(sweeps.due(0)).toBe(false);
    sweeps.wrote(120_000, 1_000);
    sweeps.wrote(120_000, 30_000);
    // Nothing of its own has expired yet: an idle process with fresh counters sends nothing.
    expect(sweeps.due(120_999)).toBe(false);
    expect(sweeps.due(121_000)).toBe(true);
    sweeps.swept(121_000);
    // The later counter expires at 150 s: the next sweep is due, and after it none.
    expect(sweeps.due(181_000)).toBe(true);
    sweeps.swept(181_000);
    expect(sweeps.due(241_000)).toBe(false);
    sweeps.wrote(60_000, 300_000);
    expect(sweeps.due(359_999)).toBe(false);
    // A later counter that expires sooner makes the sweep due sooner.
    sweeps.wrote(1_000, 310_000);
    expect(sweeps.due(311_000)).toBe(true);
  });
});
