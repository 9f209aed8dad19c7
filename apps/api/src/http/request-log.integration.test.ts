import { Writable } from 'node:stream';
import { createLogger } from '@verdict/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectError, type Harness, startServer } from '../testing/http-harness.ts';
import { publicProcedure, router } from '../trpc/init.ts';

const SECRET_EMAIL = 'grace.hopper@example.com';

/** Routes of the test's own, built with the production procedure builders. */
const testRouter = router({
  fine: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/fine' } })
    .input(z.void())
    .output(z.object({ ok: z.boolean() }))
    .query(() => ({ ok: true })),
  // An unexpected failure: the same account inserted twice, its email in the statement's values.
  broken: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/v1/broken' } })
    .input(z.void())
    .output(z.object({ ok: z.boolean() }))
    .mutation(async () => {
      const insert = () =>
        h.core.db.execute('insert into users (email, name, password_hash) values (?, ?, ?)', [
          SECRET_EMAIL,
          'Grace',
          'scrypt$hash-that-must-not-be-logged',
        ]);
      await insert().catch(() => {});
      await insert();
      return { ok: true };
    }),
});

type Line = Record<string, unknown> & { msg: string; reqId?: string };

// Procedures see only the domain's services, not the database; the broken one writes through the harness's.
let h: Harness;

describe('request logs', () => {
  const lines: Line[] = [];
  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
        done();
      },
    });
    const logger = createLogger({ level: 'info', pretty: false, destination });
    h = await startServer({ router: testRouter, logger });
  });
  afterAll(async () => {
    await h.close();
  });

  const linesOf = (reqId: string | null) => lines.filter((line) => line.reqId === reqId);

  it('writes one line per request with method, path, status and duration, under the id it answers with', async () => {
    const res = await h.request('GET', '/v1/fine?x=1');
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const mine = linesOf(id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ method: 'GET', url: '/v1/fine?x=1', status: 200, level: 30 });
    expect(mine[0]?.ms).toEqual(expect.any(Number));
  });

  it("generates the id itself: a client's X-Request-Id is recorded beside it, never used as it", async () => {
    const res = await h.request('GET', '/v1/fine', { headers: { 'x-request-id': 'client-chosen-id' } });
    const id = res.headers.get('x-request-id');
    expect(id).not.toBe('client-chosen-id');
    expect(linesOf('client-chosen-id')).toEqual([]);
    expect(linesOf(id)[0]).toMatchObject({ clientRequestId: 'client-chosen-id' });
    const unprintable = await h.request('GET', '/v1/fine', { headers: { 'x-request-id': 'a b' } });
    expect(linesOf(unprintable.headers.get('x-request-id'))[0]?.clientRequestId).toBeUndefined();
  });

  it('logs a 500 once, at error level, with the database failure identified but none of its values', async () => {
    const res = await h.request('POST', '/v1/broken');
    expectError(res, 'INTERNAL_ERROR');
    expect(res.text).not.toContain(SECRET_EMAIL);
    const mine = linesOf(res.headers.get('x-request-id'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 50, status: 500, url: '/v1/broken' });
    expect(JSON.stringify(mine[0])).toContain('23505');
    expect(JSON.stringify(mine[0])).toContain('users_email_unique');
    expect(JSON.stringify(lines)).not.toContain(SECRET_EMAIL);
    expect(JSON.stringify(lines)).not.toContain('hash-that-must-not-be-logged');
  });

  it('logs refused requests too (a 404 and a 400), one line each', async () => {
    const missing = await h.request('GET', '/v1/nope');
    const invalid = await h.request('POST', '/v1/broken', { rawBody: '{' });
    expect(linesOf(missing.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ status: 404, level: 30 }),
    ]);
    expect(linesOf(invalid.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ status: 400, level: 30 }),
    ]);
  });
});
