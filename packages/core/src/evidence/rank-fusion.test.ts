import { describe, expect, it } from 'vitest';
import { fillBudget, fuseRankings, RRF_K } from './rank-fusion.ts';

const p = (number: number, length = 1_000) => ({ number, length });

describe('fuseRankings', () => {
  it('puts first what both rankings place well, ahead of the top of only one', () => {
    const fullText = [p(1), p(2), p(3), p(4)];
    const vectors = [p(5), p(3), p(2), p(6)];
    expect(fuseRankings([fullText, vectors]).map((x) => x.number)).toEqual([2, 3, 1, 5, 4, 6]);
  });

  it('scores by reciprocal rank: 1/(k + rank) summed over the rankings', () => {
    // 7 is 1st in one ranking only; 8 is 2nd in both: 2/(k+2) > 1/(k+1).
    expect(
      fuseRankings([
        [p(7), p(8)],
        [p(9), p(8)],
      ]).map((x) => x.number),
    ).toEqual([8, 7, 9]);
    expect(2 / (RRF_K + 2)).toBeGreaterThan(1 / (RRF_K + 1));
  });

  it('keeps a single ranking as it is, and breaks ties by the lower number', () => {
    expect(fuseRankings([[p(4), p(2), p(9)]]).map((x) => x.number)).toEqual([4, 2, 9]);
    expect(fuseRankings([[p(5)], [p(3)]]).map((x) => x.number)).toEqual([3, 5]);
    expect(fuseRankings([])).toEqual([]);
  });
});

describe('fillBudget', () => {
  it('takes passages in rank order while they fit, passing over one too long for what is left', () => {
    const ranked = [p(1, 2_500), p(2, 2_500), p(3, 1_500), p(4, 900), p(5, 100)];
    expect(fillBudget(ranked, 6_000, 8)).toEqual([1, 2, 4, 5]);
  });

  it('stops at the limit, and takes nothing that cannot fit at all', () => {
    expect(fillBudget([p(1, 10), p(2, 10), p(3, 10)], 6_000, 2)).toEqual([1, 2]);
    expect(fillBudget([p(1, 700)], 500, 8)).toEqual([]);
  });
});
