import { randomUUID } from 'node:crypto';
import type { SearchResults, Suggestions } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

type StoredDebate = {
  question: string;
  context?: string | null;
  mode?: 'fast' | 'balanced' | 'thorough';
  status?: 'pending' | 'running' | 'paused' | 'completed' | 'failed';
  verdict?: { recommendation: string; oneLiner: string; confidence: number } | null;
  views?: number;
  createdAt: string;
  completedAt?: string | null;
  deleted?: boolean;
};

/**
 * Alice's debates. Every question holds "Acme", so `q=acme` finds them all (but the deleted one); the other
 * words are there for one test each.
 */
const ALICE: Record<string, StoredDebate> = {
  lisbon: {
    question: 'Acme: open a Lisbon office next spring?',
    context: 'Expansion to Portugal',
    mode: 'fast',
    status: 'completed',
    verdict: { recommendation: 'PROCEED', oneLiner: 'Open it', confidence: 0.82 },
    views: 5,
    createdAt: '2026-01-10T10:00:00.000Z',
    completedAt: '2026-01-10T11:00:00.000Z',
  },
  hiring: {
    question: 'Acme: hire a senior database engineer?',
    context: 'The lisbon office needs a DBA',
    mode: 'balanced',
    status: 'completed',
    verdict: { recommendation: 'REJECT', oneLiner: 'Not now', confidence: 0.7 },
    views: 50,
    createdAt: '2026-01-20T23:30:00.000Z',
    completedAt: '2026-01-21T00:10:00.000Z',
  },
  offices: {
    question: 'Acme offices: remote or hybrid?',
    mode: 'thorough',
    status: 'failed',
    views: 1,
    createdAt: '2026-01-31T23:59:59.500Z',
  },
  prices: {
    question: 'Acme: raise prices by 10%?',
    status: 'pending',
    createdAt: '2026-02-01T00:00:00.000Z',
  },
  snake: {
    question: 'Acme: use snake_case in the API?',
    context: 'Style guide',
    mode: 'balanced',
    status: 'running',
    views: 20,
    createdAt: '2026-02-05T12:00:00.000Z',
  },
  boxoffice: {
    question: 'Acme: chase boxoffice numbers?',
    mode: 'thorough',
    status: 'completed',
    verdict: { recommendation: 'DEFER', oneLiner: 'Wait', confidence: 0.69 },
    views: 10,
    createdAt: '2026-01-05T00:00:00.000Z',
    completedAt: '2026-01-05T01:00:00.000Z',
  },
  quoted: {
    question: `Acme: it's a "quoted" back\\slash question?`,
    status: 'paused',
    createdAt: '2026-01-15T00:00:00.000Z',
  },
  noVerdict: {
    question: 'Acme: completed without a verdict?',
    status: 'completed',
    createdAt: '2026-01-02T00:00:00.000Z',
    completedAt: '2026-01-02T01:00:00.000Z',
  },
  deleted: {
    question: 'Acme: Lisbon again, deleted',
    status: 'completed',
    verdict: { recommendation: 'PROCEED', oneLiner: 'Gone', confidence: 0.99 },
    views: 1000,
    createdAt: '2026-01-25T00:00:00.000Z',
    deleted: true,
  },
};

/** Every undeleted debate of Alice's, newest first: what `q=acme` finds with the default sort. */
const BY_DATE = ['snake', 'prices', 'offices', 'hiring', 'quoted', 'lisbon', 'boxoffice', 'noVerdict'];

/** Text a user might type that SQL would misread if it were ever spliced into a statement. */
const HOSTILE = [`'; drop table debates; --`, `%`, `_`, `\\`, `'`, `"`, `%'--`, `\\%`, `a' or '1'='1`];

describe('search', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  const ids: Record<string, string> = {};

  const insert = async (owner: TestUser, debate: StoredDebate) => {
    const id = randomUUID();
    // Questions go as parameters: db.execute would read a `?` in the text as a placeholder.
    await h.core.db.execute(
      `insert into debates (id, owner_id, question, context, mode, status, funding_source, requested_agents,
         requested_rounds, verdict, view_count, created_at, completed_at, deleted_at)
       values (?, ?, ?, ?, ?, ?, 'user_credits', 3, 2, ?::jsonb, ?, ?, ?, ?)`,
      [
        id,
        owner.session.user.id,
        debate.question,
        debate.context ?? null,
        debate.mode ?? 'fast',
        debate.status ?? 'pending',
        debate.verdict ? JSON.stringify({ ...debate.verdict, narrative: 'n', arguments: [] }) : null,
        debate.views ?? 0,
        debate.createdAt,
        debate.completedAt ?? null,
        debate.deleted ? debate.createdAt : null,
      ],
    );
    return id;
  };

  const search = (user: TestUser, query: Record<string, string | number | boolean>) =>
    h.request<SearchResults>('GET', `/api/search?${params(query)}`, { cookie: user.cookie });

  /** The names (keys of ALICE) of the results, in order. */
  const found = async (query: Record<string, string | number | boolean>, user = alice) => {
    const res = await search(user, query);
    expect(res.status, res.text).toBe(200);
    return res.json.results.map((r) => nameOf(r.id));
  };
  const nameOf = (id: string) => Object.keys(ids).find((name) => ids[name] === id) ?? id;

  beforeAll(async () => {
    h = await startServer();
    alice = await registerUser(h);
    bob = await registerUser(h);
    for (const [name, debate] of Object.entries(ALICE)) ids[name] = await insert(alice, debate);
    ids.bobs = await insert(bob, {
      question: 'Acme: Bob moves to Lisbon?',
      status: 'completed',
      verdict: { recommendation: 'PROCEED', oneLiner: 'Go', confidence: 0.9 },
      views: 99,
      createdAt: '2026-01-12T00:00:00.000Z',
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('matching', () => {
    it('finds the caller’s own undeleted debates, newest first, with the fields of the specification', async () => {
      const res = await search(alice, { q: 'acme' });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ total: 8, totalPages: 1, page: 1, limit: 10 });
      expect(res.json.results.map((r) => nameOf(r.id))).toEqual(BY_DATE);
      const lisbon = res.json.results.find((r) => r.id === ids.lisbon);
      expect(lisbon).toEqual({
        id: ids.lisbon,
        question: ALICE.lisbon?.question,
        status: 'completed',
        mode: 'fast',
        createdAt: '2026-01-10T10:00:00.000Z',
        completedAt: '2026-01-10T11:00:00.000Z',
        recommendation: 'PROCEED',
        oneLiner: 'Open it',
        confidence: 0.82,
        relevanceScore: expect.any(Number),
      });
      const pending = res.json.results.find((r) => r.id === ids.prices);
      expect(pending).toMatchObject({
        completedAt: null,
        recommendation: null,
        oneLiner: null,
        confidence: null,
      });
    });

    it('matches text inside the question or the context, in any case', async () => {
      expect(await found({ q: 'LISBON' })).toEqual(['hiring', 'lisbon']);
      expect(await found({ q: 'portugal' })).toEqual(['lisbon']);
      expect(await found({ q: 'ub' })).toEqual([]); // inside no word of Alice's
      expect(await found({ q: 'a dba' })).toEqual(['hiring']);
    });

    it('gives keyword-only matches (no full-text match) a null relevanceScore', async () => {
      const res = await search(alice, { q: 'lisb', sort: 'relevance' });
      expect(res.json.results.map((r) => [nameOf(r.id), r.relevanceScore])).toEqual([
        ['hiring', null],
        ['lisbon', null],
      ]);
    });

    it('finds stemmed full-text matches the keyword misses, and ranks them before keyword-only ones', async () => {
      // "office" stems like "offices"; "boxoffice" contains the keyword but is another word.
      const res = await search(alice, { q: 'office', sort: 'relevance' });
      expect(res.json.total).toBe(4);
      const names = res.json.results.map((r) => nameOf(r.id));
      expect(names.slice(0, 3).sort()).toEqual(['hiring', 'lisbon', 'offices']);
      expect(names[3]).toBe('boxoffice');
      const scores = res.json.results.map((r) => r.relevanceScore);
      expect(scores[3]).toBeNull();
      const ranked = scores.slice(0, 3) as number[];
      for (const score of ranked) expect(score).toBeGreaterThan(0);
      for (const score of ranked) expect(score).toBeLessThan(1);
      expect([...ranked].sort((a, b) => b - a)).toEqual(ranked);
      // "offices" matches by its stem too, where the keyword finds only the plural.
      expect((await found({ q: 'offices' })).sort()).toEqual(['hiring', 'lisbon', 'offices']);
    });

    it('takes full-text syntax: a quoted phrase, and -word to leave one out', async () => {
      expect(await found({ q: '"database engineer"' })).toEqual(['hiring']);
      expect((await found({ q: 'acme -lisbon', sort: 'relevance' })).sort()).toEqual(
        BY_DATE.filter((n) => n !== 'lisbon' && n !== 'hiring').sort(),
      );
    });

    it('gives a search of stop words only its keyword matches', async () => {
      const res = await search(alice, { q: 'the', sort: 'relevance' });
      expect(res.status).toBe(200);
      expect(res.json.results.map((r) => r.relevanceScore)).toEqual(res.json.results.map(() => null));
      expect(res.json.results.map((r) => nameOf(r.id))).toEqual(['snake', 'hiring']);
    });

    it('never shows another user’s debates, and shows the other user only theirs', async () => {
      expect(await found({ q: 'bob' })).toEqual([]);
      expect(await found({ q: 'acme' }, bob)).toEqual(['bobs']);
      expect(await found({ q: 'lisbon', type: 'verdicts', sort: 'popularity' }, bob)).toEqual(['bobs']);
    });

    it('answers an API key as it answers the session', async () => {
      const { key } = await createKey(h, alice);
      const res = await h.request<SearchResults>('GET', '/api/search?q=lisbon', { key });
      expect(res.status, res.text).toBe(200);
      expect(res.json.results.map((r) => nameOf(r.id))).toEqual(['hiring', 'lisbon']);
    });

    it('refuses a request without credentials', async () => {
      expectError(await h.request('GET', '/api/search?q=acme'), 'UNAUTHORIZED');
      expectError(await h.request('GET', '/api/search/suggestions'), 'UNAUTHORIZED');
      expectError(await h.request('DELETE', '/api/search/history'), 'UNAUTHORIZED');
    });
  });

  describe('user text is data, never SQL', () => {
    it('takes LIKE wildcards and the escape character literally', async () => {
      expect(await found({ q: '%' })).toEqual(['prices']);
      expect(await found({ q: '10%' })).toEqual(['prices']);
      expect(await found({ q: '_' })).toEqual(['snake']);
      expect(await found({ q: 'snake_case' })).toEqual(['snake']);
      expect(await found({ q: '\\' })).toEqual(['quoted']);
      expect(await found({ q: 'back\\slash' })).toEqual(['quoted']);
      // As wildcards these would match "open a Lisbon"; as text they match nothing (full text neither).
      expect(await found({ q: 'pen%lisbon' })).toEqual([]);
      expect(await found({ q: 'pen_a_lisbon' })).toEqual([]);
      expect(await found({ q: 'a_me' })).toEqual([]);
    });

    it('matches quotes as written', async () => {
      expect(await found({ q: "it's" })).toEqual(['quoted']);
      expect(await found({ q: '"quoted"' })).toEqual(['quoted']);
      expect(await found({ q: `'` })).toEqual(['quoted']);
    });

    it('answers hostile text with an ordinary result, the tables untouched', async () => {
      for (const q of HOSTILE) {
        for (const sort of ['date', 'relevance', 'popularity']) {
          const res = await search(alice, { q, sort });
          expect(res.status, `${q} ${res.text}`).toBe(200);
          for (const r of res.json.results) expect(r.question.includes(q) || q === `'`, q).toBe(true);
        }
        const suggested = await h.request('GET', `/api/search/suggestions?${params({ q })}`, {
          cookie: alice.cookie,
        });
        expect(suggested.status, suggested.text).toBe(200);
      }
      const [row] = await h.core.db.execute<{ n: number }>('select count(*)::int as n from debates');
      expect(row?.n).toBe(Object.keys(ALICE).length + 1);
    });
  });

  describe('sorting and paging', () => {
    it('sorts by views with popularity, newest first among equals', async () => {
      expect(await found({ q: 'acme', sort: 'popularity' })).toEqual([
        'hiring',
        'snake',
        'boxoffice',
        'lisbon',
        'offices',
        'prices',
        'quoted',
        'noVerdict',
      ]);
    });

    it('pages through the matches, with total and totalPages of all of them', async () => {
      const pages: string[][] = [];
      for (const page of [1, 2, 3]) {
        const res = await search(alice, { q: 'acme', limit: 3, page });
        expect(res.json).toMatchObject({ total: 8, totalPages: 3, page, limit: 3 });
        pages.push(res.json.results.map((r) => nameOf(r.id)));
      }
      expect(pages).toEqual([BY_DATE.slice(0, 3), BY_DATE.slice(3, 6), BY_DATE.slice(6)]);
      const beyond = await search(alice, { q: 'acme', limit: 3, page: 4 });
      expect(beyond.json).toMatchObject({ results: [], total: 8, totalPages: 3, page: 4 });
      const none = await search(alice, { q: 'nothing like this' });
      expect(none.json).toEqual({ results: [], total: 0, totalPages: 0, page: 1, limit: 10 });
      expect((await search(alice, { q: 'acme', limit: 50 })).json.results).toHaveLength(8);
      expect((await search(alice, { q: 'acme', limit: 1 })).json.totalPages).toBe(8);
    });
  });

  describe('filters', () => {
    it('type=verdicts keeps completed debates with a verdict', async () => {
      expect(await found({ q: 'acme', type: 'verdicts' })).toEqual(['hiring', 'lisbon', 'boxoffice']);
      expect(await found({ q: 'acme', type: 'debates' })).toEqual(BY_DATE);
    });

    it('status and mode take comma-separated lists', async () => {
      expect(await found({ q: 'acme', status: 'completed' })).toEqual([
        'hiring',
        'lisbon',
        'boxoffice',
        'noVerdict',
      ]);
      expect(await found({ q: 'acme', status: 'failed,pending,paused' })).toEqual([
        'prices',
        'offices',
        'quoted',
      ]);
      expect(await found({ q: 'acme', status: 'running,running' })).toEqual(['snake']);
      expect(await found({ q: 'acme', mode: 'thorough' })).toEqual(['offices', 'boxoffice']);
      expect(await found({ q: 'acme', mode: 'balanced,thorough' })).toEqual([
        'snake',
        'offices',
        'hiring',
        'boxoffice',
      ]);
    });

    it('dateFrom starts at its day or instant; dateTo includes the whole UTC day it names', async () => {
      expect(await found({ q: 'acme', dateFrom: '2026-01-20' })).toEqual([
        'snake',
        'prices',
        'offices',
        'hiring',
      ]);
      expect(await found({ q: 'acme', dateFrom: '2026-01-20T23:30:00.001Z' })).toEqual([
        'snake',
        'prices',
        'offices',
      ]);
      const throughJanuary = ['offices', 'hiring', 'quoted', 'lisbon', 'boxoffice', 'noVerdict'];
      expect(await found({ q: 'acme', dateTo: '2026-01-31' })).toEqual(throughJanuary);
      expect(await found({ q: 'acme', dateTo: '2026-01-31T08:00:00Z' })).toEqual(throughJanuary);
      // 01:00 at +02:00 is 23:00 UTC on the 31st: through the end of that UTC day.
      expect(await found({ q: 'acme', dateTo: '2026-02-01T01:00:00+02:00' })).toEqual(throughJanuary);
      expect(await found({ q: 'acme', dateFrom: '2026-01-10', dateTo: '2026-01-15' })).toEqual([
        'quoted',
        'lisbon',
      ]);
      expect(await found({ q: 'acme', dateFrom: '2026-01-31', dateTo: '2026-01-31' })).toEqual(['offices']);
    });

    it('takes the dates of year 0000 the document allows, before which the database keeps nothing', async () => {
      const all = await found({ q: 'acme' });
      expect(all.length).toBeGreaterThan(0);
      expect(await found({ q: 'acme', dateFrom: '0000-02-29' })).toEqual(all);
      expect(await found({ q: 'acme', dateFrom: '0000-01-01T00:00:00Z' })).toEqual(all);
      expect(await found({ q: 'acme', dateTo: '0000-12-31' })).toEqual([]);
    });

    it('minConfidence is in percent, inclusive', async () => {
      expect(await found({ q: 'acme', minConfidence: 70 })).toEqual(['hiring', 'lisbon']);
      expect(await found({ q: 'acme', minConfidence: 69 })).toEqual(['hiring', 'lisbon', 'boxoffice']);
      expect(await found({ q: 'acme', minConfidence: 70.5 })).toEqual(['lisbon']);
      expect(await found({ q: 'acme', minConfidence: 0 })).toEqual(['hiring', 'lisbon', 'boxoffice']);
      expect(await found({ q: 'acme', minConfidence: 100 })).toEqual([]);
    });

    it('hasVerdict keeps debates with, or without, a verdict', async () => {
      expect(await found({ q: 'acme', hasVerdict: true })).toEqual(['hiring', 'lisbon', 'boxoffice']);
      expect(await found({ q: 'acme', hasVerdict: false })).toEqual([
        'snake',
        'prices',
        'offices',
        'quoted',
        'noVerdict',
      ]);
    });

    it('combines every filter with AND', async () => {
      expect(await found({ q: 'acme', status: 'completed', mode: 'fast' })).toEqual(['lisbon', 'noVerdict']);
      expect(
        await found({
          q: 'lisbon',
          type: 'verdicts',
          status: 'completed',
          mode: 'fast,balanced',
          dateFrom: '2026-01-01',
          dateTo: '2026-01-31',
          minConfidence: 75,
          hasVerdict: true,
          sort: 'relevance',
        }),
      ).toEqual(['lisbon']);
      expect(await found({ q: 'acme', hasVerdict: false, minConfidence: 0 })).toEqual([]);
    });
  });

  describe('invalid parameters', () => {
    const refused = async (query: string, path: string) => {
      const res = await h.request('GET', `/api/search?${query}`, { cookie: alice.cookie });
      const error = expectError(res, 'VALIDATION_ERROR');
      expect(
        error.details?.map((d) => d.path),
        query,
      ).toContain(path);
    };

    it('answers 400 VALIDATION_ERROR with details naming the parameter', async () => {
      await refused('', 'q');
      await refused('q=', 'q');
      await refused('q=%20%20', 'q');
      await refused(`q=${'x'.repeat(201)}`, 'q');
      await refused('q=a&type=all', 'type');
      await refused('q=a&sort=views', 'sort');
      await refused('q=a&page=0', 'page');
      await refused('q=a&page=1.5', 'page');
      await refused('q=a&limit=0', 'limit');
      await refused('q=a&limit=51', 'limit');
      await refused('q=a&limit=ten', 'limit');
      await refused('q=a&status=done', 'status');
      await refused('q=a&status=completed,done', 'status');
      await refused('q=a&status=completed,', 'status');
      await refused('q=a&status=COMPLETED', 'status');
      await refused('q=a&mode=quick', 'mode');
      await refused('q=a&mode=fast,,balanced', 'mode');
      await refused('q=a&dateFrom=yesterday', 'dateFrom');
      await refused('q=a&dateFrom=2026-02-30', 'dateFrom');
      await refused('q=a&dateTo=2026-13-01', 'dateTo');
      await refused('q=a&dateTo=31/01/2026', 'dateTo');
      await refused('q=a&dateFrom=2026-02-01&dateTo=2026-01-31', 'dateFrom');
      await refused('q=a&minConfidence=-1', 'minConfidence');
      await refused('q=a&minConfidence=101', 'minConfidence');
      await refused('q=a&minConfidence=high', 'minConfidence');
      await refused('q=a&hasVerdict=yes', 'hasVerdict');
      await refused('q=a&hasVerdict=1', 'hasVerdict');
      await refused(`q=a&hasVerdict=`, 'hasVerdict');
      const suggestions = await h.request('GET', `/api/search/suggestions?q=${'x'.repeat(201)}`, {
        cookie: alice.cookie,
      });
      expectError(suggestions, 'VALIDATION_ERROR');
    });

    it('accepts the bounds', async () => {
      const bounds: Record<string, string | number>[] = [
        { q: 'x'.repeat(200) },
        { q: 'a', limit: 1 },
        { q: 'a', limit: 50 },
        { q: 'a', minConfidence: 0 },
        { q: 'a', minConfidence: 100 },
        { q: 'a', dateFrom: '2026-01-31', dateTo: '2026-01-31' },
        { q: 'a', dateFrom: '2026-01-31T12:00:00Z', dateTo: '2026-01-31T06:00:00Z' }, // same UTC day
      ];
      for (const query of bounds) {
        const res = await search(alice, query);
        expect(res.status, `${JSON.stringify(query)} ${res.text}`).toBe(200);
      }
    });

    it('records no history for a refused search', async () => {
      const carol = await registerUser(h);
      await h.request('GET', '/api/search?q=refused&limit=0', { cookie: carol.cookie });
      expect(await suggest(carol)).toEqual([]);
    });
  });

  const suggest = async (user: TestUser, q?: string) => {
    const res = await h.request<Suggestions>(
      'GET',
      `/api/search/suggestions${q === undefined ? '' : `?${params({ q })}`}`,
      { cookie: user.cookie },
    );
    expect(res.status, res.text).toBe(200);
    return res.json.suggestions.map((s) => `${s.source}:${s.text}`);
  };

  describe('history and suggestions', () => {
    let dana: TestUser;
    beforeAll(async () => {
      dana = await registerUser(h);
      await insert(dana, { question: 'Acme: budget for next year?', createdAt: '2026-03-01T00:00:00Z' });
      await insert(dana, { question: 'acme: budget for next year?', createdAt: '2026-03-02T00:00:00Z' });
      await insert(dana, { question: 'Acme: hire a designer?', createdAt: '2026-03-03T00:00:00Z' });
      await insert(dana, { question: 'Budget cuts?', createdAt: '2026-03-04T00:00:00Z' });
      await insert(dana, {
        question: 'Acme: deleted question?',
        createdAt: '2026-03-05T00:00:00Z',
        deleted: true,
      });
    });

    it('lists recent searches newest first, a repeated one (in any case) moved to the top', async () => {
      for (const q of ['lisbon', 'Budget', 'acme budget', '  LISBON  ']) {
        expect((await search(dana, { q })).status).toBe(200);
      }
      expect(await suggest(dana)).toEqual(['history:LISBON', 'history:acme budget', 'history:Budget']);
      expect(await suggest(dana, '')).toEqual(await suggest(dana));
      expect(await suggest(dana, '   ')).toEqual(await suggest(dana));
      // Another user's history is theirs.
      expect(await suggest(alice)).not.toContain('history:acme budget');
    });

    it('with q: searches starting with it, then questions of the caller’s debates starting with it', async () => {
      expect(await suggest(dana, 'ACME')).toEqual([
        'history:acme budget',
        'debate:Acme: hire a designer?',
        'debate:acme: budget for next year?',
      ]);
      expect(await suggest(dana, 'bud')).toEqual(['history:Budget', 'debate:Budget cuts?']);
      expect(await suggest(dana, 'budget cuts')).toEqual(['debate:Budget cuts?']);
      expect(await suggest(dana, 'designer')).toEqual([]); // a prefix, not anywhere inside
      expect(await suggest(dana, '%')).toEqual([]);
      expect(await suggest(dana, '_cme')).toEqual([]);
      expect(await suggest(bob, 'acme')).toEqual(['history:acme', 'debate:Acme: Bob moves to Lisbon?']);
    });

    it('keeps the newest 50 searches and suggests at most 10', async () => {
      const erin = await registerUser(h);
      for (let i = 1; i <= 55; i++) expect((await search(erin, { q: `query ${i}` })).status).toBe(200);
      const rows = await h.core.db.execute<{ query: string }>(
        'select query from search_history where user_id = ? order by created_at desc',
        [erin.session.user.id],
      );
      expect(rows.map((r) => r.query)).toEqual(Array.from({ length: 50 }, (_, i) => `query ${55 - i}`));
      expect(await suggest(erin)).toEqual(Array.from({ length: 10 }, (_, i) => `history:query ${55 - i}`));
      expect(await suggest(erin, 'query 1')).toEqual([
        'history:query 19',
        'history:query 18',
        'history:query 17',
        'history:query 16',
        'history:query 15',
        'history:query 14',
        'history:query 13',
        'history:query 12',
        'history:query 11',
        'history:query 10',
      ]);
    });

    it('records concurrent searches of one user one after another', async () => {
      const fay = await registerUser(h);
      const texts = ['alpha', 'ALPHA', 'beta', 'alpha', 'gamma', 'Beta', 'delta', 'alpha'];
      const answers = await Promise.all(texts.map((q) => search(fay, { q })));
      expect(answers.map((res) => res.status)).toEqual(texts.map(() => 200));
      const history = (await suggest(fay)).map((s) => s.toLowerCase()).sort();
      expect(history).toEqual(['history:alpha', 'history:beta', 'history:delta', 'history:gamma']);
    });

    it('DELETE /api/search/history clears the caller’s history only', async () => {
      const before = await suggest(alice);
      expect(before.length).toBeGreaterThan(0);
      const res = await h.request('DELETE', '/api/search/history', { cookie: dana.cookie });
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe('');
      expect(await suggest(dana)).toEqual([]);
      expect(await suggest(dana, 'bud')).toEqual(['debate:Budget cuts?']);
      expect(await suggest(alice)).toEqual(before);
      expect((await h.request('DELETE', '/api/search/history', { cookie: dana.cookie })).status).toBe(204);
    });
  });

  describe('indexes', () => {
    const indexesOfDebates = async () =>
      (
        await h.core.db.execute<{ indexname: string }>(
          'select indexname from pg_indexes where schemaname = current_schema() and tablename = ?',
          ['debates'],
        )
      ).map((r) => r.indexname);

    /** The plan PostgreSQL picks for `sql` when told to avoid a sequential scan wherever it can. */
    const planOf = (sql: string, values: unknown[]) =>
      h.core.db.em().transactional(async (em) => {
        const run = (text: string, params: unknown[] = []) =>
          em.getConnection().execute(text, params, 'all', em.getTransactionContext()) as Promise<
            Record<string, string>[]
          >;
        await run('set local enable_seqscan = off');
        return (await run(`explain ${sql}`, values)).map((row) => row['QUERY PLAN']).join('\n');
      });

    const QUERIES: Record<string, string | number>[] = [
      { q: 'lisbon' },
      { q: 'office', sort: 'relevance' },
      { q: 'lisb', sort: 'popularity' },
      { q: '%' },
      { q: '_', status: 'running' },
      { q: 'acme', type: 'verdicts', minConfidence: 70 },
      { q: 'acme', limit: 3, page: 2 },
    ];
    const answers = async () => Promise.all(QUERIES.map(async (query) => (await search(alice, query)).json));

    it('has trigram and full-text indexes where pg_trgm exists, and answers the same without them', async () => {
      expect(await indexesOfDebates()).toEqual(
        expect.arrayContaining([
          'debates_search_fts_index',
          'debates_question_trgm_index',
          'debates_context_trgm_index',
        ]),
      );
      expect(await planOf('select id from debates where question ilike ?', ['%lisbon%'])).toContain(
        'debates_question_trgm_index',
      );
      expect(await planOf('select id from debates where context ilike ?', ['%lisbon%'])).toContain(
        'debates_context_trgm_index',
      );
      expect(
        await planOf(
          `select id from debates where to_tsvector('english', question || ' ' || coalesce(context, '')) @@ websearch_to_tsquery('english', ?)`,
          ['office'],
        ),
      ).toContain('debates_search_fts_index');

      const withTrigrams = await answers();
      // A database without pg_trgm gets no trigram indexes (migration 0014): the same searches still work.
      await h.core.db.execute('drop index debates_question_trgm_index');
      await h.core.db.execute('drop index debates_context_trgm_index');
      expect(await indexesOfDebates()).not.toContain('debates_question_trgm_index');
      expect(await answers()).toEqual(withTrigrams);
      expect(withTrigrams.map((answer) => answer.total)).toEqual([2, 4, 2, 1, 1, 2, 8]);
    });
  });
});

const params = (query: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
