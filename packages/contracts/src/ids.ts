import { z } from 'zod';

/**
 * A UUID a client sends (path, body): any letter case, as RFC 9562 allows and the document's pattern says,
 * read as its canonical lowercase form. One debate then has one id everywhere the server uses it as text:
 * bus subjects (commands, live events) and stream keys as well as queries.
 *
 * @example
 * UuidInput.parse('1B472F5B-0BE8-4CA4-9EE6-451C7C0A4AFF') // '1b472f5b-0be8-4ca4-9ee6-451c7c0a4aff'
 */
export const UuidInput = z.uuid().toLowerCase();
