import { describe, expect, it } from 'vitest';
import { isLastPage, offsetOf, pageOf } from './paging.ts';

describe('paging', () => {
  it('skips the rows of the pages before', () => {
    expect(offsetOf({ page: 1, limit: 20 })).toBe(0);
    expect(offsetOf({ page: 3, limit: 20 })).toBe(40);
  });

  it('counts a partly filled last page as a page', () => {
    expect(pageOf({ page: 2, limit: 20 }, 41)).toEqual({ page: 2, limit: 20, total: 41, totalPages: 3 });
    expect(pageOf({ page: 1, limit: 20 }, 40).totalPages).toBe(2);
  });

  it('has no pages without items, and page 1 stands last then', () => {
    expect(pageOf({ page: 1, limit: 20 }, 0).totalPages).toBe(0);
    expect(isLastPage({ page: 1, totalPages: 0 })).toBe(true);
    expect(isLastPage({ page: 2, totalPages: 3 })).toBe(false);
    expect(isLastPage({ page: 3, totalPages: 3 })).toBe(true);
  });
});
