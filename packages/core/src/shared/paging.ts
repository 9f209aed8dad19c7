/** A numbered page asked for: `page` counts from 1, `limit` items each. */
export type PageRequest = { page: number; limit: number };

/** Where a page stands among `total` items: what every numbered list answers beside its items. */
export type PageNumbers = { page: number; limit: number; total: number; totalPages: number };

/** The rows before the page, to skip. */
export const offsetOf = ({ page, limit }: PageRequest): number => (page - 1) * limit;

/** The numbers of the page asked for among `total` items; no items means no pages (totalPages 0). */
export const pageOf = ({ page, limit }: PageRequest, total: number): PageNumbers => ({
  page,
  limit,
  total,
  totalPages: Math.ceil(total / limit),
});

/** Whether `page` is the last page with items, or page 1 when there are none. */
export const isLastPage = ({ page, totalPages }: Pick<PageNumbers, 'page' | 'totalPages'>): boolean =>
  page === Math.max(1, totalPages);
