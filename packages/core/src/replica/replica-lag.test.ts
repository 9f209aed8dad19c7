import { describe, expect, it } from 'vitest';
import { replicaLag } from './replica-lag.ts';

describe('replicaLag', () => {
  it('is as far behind as the oldest primary position the replica has not replayed', () => {
    const lag = replicaLag();
    lag.samplePrimary(1_000, 100n);
    lag.samplePrimary(2_000, 200n);
    lag.samplePrimary(3_000, 300n);
    expect(lag.behindMs(3_500, 50n)).toBe(2_500);
    expect(lag.behindMs(3_500, 150n)).toBe(1_500);
    expect(lag.behindMs(3_500, 300n)).toBe(0);
  });

  it('counts an idle primary, whose position does not move, as no lag however much time passes', () => {
    const lag = replicaLag();
    lag.samplePrimary(1_000, 100n);
    lag.samplePrimary(60_000, 100n);
    expect(lag.behindMs(120_000, 100n)).toBe(0);
  });

  it('keeps the first sample of a burst, so lag is not understated by frequent sampling', () => {
    const lag = replicaLag();
    lag.samplePrimary(1_000, 100n);
    lag.samplePrimary(1_010, 110n);
    expect(lag.behindMs(1_100, 99n)).toBe(100);
  });
});
