import { createHash } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Pool, PoolClient } from 'pg';

/** How a statement's text starts when it is to be prepared: the comment names it. */
const MARK = '/*prepared:';

/**
 * `statement`, marked to be prepared once on each connection of the pool instead of parsed, analysed and
 * planned afresh every time it is sent (PostgreSQL's extended protocol with a named statement). For the few
 * statements a process sends many times a second (the engine's claim, log batches, turns, lease renewals):
 * planning and parsing were a third of PostgreSQL's CPU under the engine's load (BENCHMARKS.md). Such a
 * statement names its columns (no `*`), so a migration that adds a column does not change its result and
 * invalidate it. Elsewhere (PGlite) the mark is a comment and nothing more.
 */
export const prepared = <T>(name: string, statement: RawBuilder<T>): RawBuilder<T> =>
  sql<T>`${sql.raw(`${MARK}${name}*/`)} ${statement}`;

/**
 * Lets the pool's connections send marked statements by name. Kysely sends every statement as text and
 * parameters (`client.query(text, values)`); each new connection's `query` is wrapped so that a marked text
 * goes as `{ name, text, values }`, which node-postgres prepares on that connection the first time and
 * executes by name after. The name carries a hash of the text: two texts under one mark are two statements.
 */
export function prepareMarkedStatements(pool: Pool): void {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) {
      const mark = text.slice(MARK.length, text.indexOf('*/'));
      name = `${mark}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;
      names.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client: PoolClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    Object.assign(client, {
      query: (text: unknown, values?: unknown, callback?: unknown) =>
        typeof text === 'string' && text.startsWith(MARK) && callback === undefined
          ? query({ name: nameOf(text), text, values })
          : query(text, values, callback),
    });
  });
}
