/**
 * LIKE's wildcards (`%`, `_`) and its escape character (`\`, PostgreSQL's default) written as literals, so
 * user text matches only itself.
 *
 * @example
 * escapeLike('50%_off\\') // '50\\%\\_off\\\\'
 */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A pattern matching `text` anywhere in a value (with ILIKE: in any case). */
export const containing = (text: string): string => `%${escapeLike(text)}%`;

/** A pattern matching values that start with `text`. */
export const startingWith = (text: string): string => `${escapeLike(text)}%`;
