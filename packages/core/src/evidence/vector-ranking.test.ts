import { describe, expect, it } from 'vitest';
import { rankByVector } from './vector-ranking.ts';

const vectors = new Map<number, Float32Array>([
  [1, Float32Array.from([1, 0, 0])],
  [2, Float32Array.from([0.6, 0.8, 0])],
  [3, Float32Array.from([0, 0, 1])],
  [4, Float32Array.from([0.6, 0.8, 0])],
  [5, Float32Array.from([1, 0])],
]);

describe('rankByVector', () => {
  it('ranks by dot product, ties by number, leaving out skipped passages and other dimensions', () => {
    const ranked = rankByVector(vectors, [0.8, 0.6, 0], (n) => n === 1, 10);
    expect(ranked.map((r) => r.number)).toEqual([2, 4, 3]);
    expect(ranked[0]?.similarity).toBeCloseTo(0.96, 5);
    expect(ranked[2]?.similarity).toBe(0);
  });

  it('stops at the limit', () => {
    expect(rankByVector(vectors, [1, 0, 0], () => false, 2).map((r) => r.number)).toEqual([1, 2]);
  });
});
