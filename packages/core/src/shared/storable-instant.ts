/** The first and last instants PostgreSQL and ISO text share: it has no year zero, ISO has no year 10000. */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * An instant a caller gave (a filter bound, a page cursor) as ISO text PostgreSQL takes. The API's dates run
 * from year 0000, and an offset can carry 9999-12-31 into year 10000; nothing is stored outside years
 * 0001–9999, so a bound beyond them is the same as a bound at their edge.
 */
export const storableInstant = (instant: Date | string): string =>
  new Date(Math.min(Math.max(new Date(instant).getTime(), EARLIEST), LATEST)).toISOString();
