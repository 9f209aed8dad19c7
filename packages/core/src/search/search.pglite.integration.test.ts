import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchQuery } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/orm.ts';
import { openDatabase } from '../db/orm.ts';
import { entities } from '../entities.ts';
import { systemClock } from '../shared/clock.ts';
import { createSearch, type SemanticHits } from './search.ts';

/**
 * Search on the embedded database: PGlite has no pg_trgm unless it is loaded, so migration 0014 leaves the
 * trigram indexes out there. The same queries must answer as on PostgreSQL, only without that index.
 */
describe('search on PGlite, without pg_trgm', () => {
  let dir: string;
  let db: Database;
  let userId: string;
  const ids: Record<string, string> = {};

  const insert = async (name: string, question: string, context: string | null, createdAt: string) => {
    ids[name] = randomUUID();
    await db.execute(
      `insert into debates (id, owner_id, question, context, mode, status, funding_source, requested_agents,
         requested_rounds, created_at) values (?, ?, ?, ?, 'fast', 'pending', 'user_credits', 3, 2, ?)`,
      [ids[name], userId, question, context, createdAt],
    );
  };
  const nameOf = (id: string) => Object.keys(ids).find((name) => ids[name] === id);
  const query = (input: Record<string, string>) => SearchQuery.parse(input);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verdict-search-'));
    db = await openDatabase({ kind: 'pglite', dataDir: dir }, { entities });
    userId = randomUUID();
    await db.execute(`insert into users (id, email, name) values (?, ?, 'Pat')`, [
      userId,
      `${userId}@example.com`,
    ]);
    await insert('lisbon', 'Open a Lisbon office?', 'Expansion to Portugal', '2026-01-10T00:00:00Z');
    await insert('offices', 'Offices: remote or hybrid?', null, '2026-01-20T00:00:00Z');
    await insert('boxoffice', 'Chase boxoffice numbers?', null, '2026-01-05T00:00:00Z');
    await insert('prices', 'Raise prices by 10%?', 'snake_case \\ notes', '2026-01-25T00:00:00Z');
    // Found only by meaning: the stand-in semantic source below pairs "relocation" with it.
    await insert('move', 'Relocate the team abroad?', null, '2026-01-01T00:00:00Z');
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has the full-text index and no trigram index', async () => {
    const rows = await db.execute<{ indexname: string }>(
      `select indexname from pg_indexes where tablename = 'debates' and indexname like 'debates_%_index'`,
    );
    const names = rows.map((r) => r.indexname);
    expect(names).toContain('debates_search_fts_index');
    expect(names).not.toContain('debates_question_trgm_index');
    expect(names).not.toContain('debates_context_trgm_index');
  });

  it('matches keywords and full text, ranks, and takes wildcards literally', async () => {
    const search = createSearch({ db, clock: systemClock });
    const ranked = await search.search(userId, query({ q: 'office', sort: 'relevance' }));
    expect(ranked.results.map((r) => [nameOf(r.id), r.relevanceScore === null])).toEqual([
      [expect.stringMatching(/^(lisbon|offices)$/), false],
      [expect.stringMatching(/^(lisbon|offices)$/), false],
      ['boxoffice', true],
    ]);
    expect(ranked.total).toBe(3);
    const names = async (q: string) =>
      (await search.search(userId, query({ q }))).results.map((r) => nameOf(r.id));
    expect(await names('%')).toEqual(['prices']);
    expect(await names('_')).toEqual(['prices']);
    expect(await names('\\')).toEqual(['prices']);
    expect(await names('pen%lisbon')).toEqual([]);
    expect(await names(`'; drop table debates; --`)).toEqual([]);
    expect(await names('PORTUGAL')).toEqual(['lisbon']);
  });

  it('appends semantic hits after the keyword matches, uncounted, without repeating a keyword match', async () => {
    // A semantic source of fixed pairs, as an embedding lookup would answer for "relocation".
    const semanticHits: SemanticHits = async (_userId, q, limit) =>
      q === 'lisbon'
        ? [
            { id: ids.lisbon as string, similarity: 0.95 },
            { id: ids.move as string, similarity: 0.8 },
            { id: randomUUID(), similarity: 0.7 }, // not a debate (any more): skipped
          ].slice(0, limit)
        : q === 'office'
          ? [{ id: ids.move as string, similarity: 0.6 }]
          : [];
    const search = createSearch({ db, clock: systemClock, semanticHits });
    const res = await search.search(userId, query({ q: 'lisbon' }));
    expect(res.results.map((r) => [nameOf(r.id), r.relevanceScore === null])).toEqual([
      ['lisbon', false],
      ['move', true],
    ]);
    expect(res).toMatchObject({ total: 1, totalPages: 1 });
    // On the page where the keyword matches end, and there only.
    const first = await search.search(userId, query({ q: 'office', limit: '2' }));
    expect(first).toMatchObject({ total: 3, totalPages: 2 });
    expect(first.results.map((r) => nameOf(r.id))).not.toContain('move');
    const last = await search.search(userId, query({ q: 'office', limit: '2', page: '2' }));
    expect(last.results.map((r) => nameOf(r.id))).toEqual(['boxoffice', 'move']);
    const past = await search.search(userId, query({ q: 'office', limit: '2', page: '3' }));
    expect(past.results).toEqual([]);
    // Filters hold for semantic hits too.
    const filtered = await search.search(userId, query({ q: 'lisbon', dateFrom: '2026-01-02' }));
    expect(filtered.results.map((r) => nameOf(r.id))).toEqual(['lisbon']);
  });

  it('records searches and suggests from them and from questions', async () => {
    const search = createSearch({ db, clock: systemClock });
    await search.clearHistory(userId);
    await search.search(userId, query({ q: 'raise' }));
    await search.search(userId, query({ q: 'Offices' }));
    expect((await search.suggestions(userId)).suggestions).toEqual([
      { text: 'Offices', source: 'history' },
      { text: 'raise', source: 'history' },
    ]);
    expect((await search.suggestions(userId, 'r')).suggestions).toEqual([
      { text: 'raise', source: 'history' },
      { text: 'Raise prices by 10%?', source: 'debate' },
      { text: 'Relocate the team abroad?', source: 'debate' },
    ]);
  });
});
