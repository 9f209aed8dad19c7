import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../testing/index.ts';
import type { ChangeHandlers } from './listener.ts';
import { postgresListener } from './postgres-listener.ts';

/** Handlers recording what they heard. */
function recorder() {
  const heard = { payloads: [] as string[], listening: 0, lost: 0 };
  const handlers: ChangeHandlers = {
    onNotification: (payload) => heard.payloads.push(payload),
    onListening: () => {
      heard.listening += 1;
    },
    onLost: () => {
      heard.lost += 1;
    },
  };
  return { heard, handlers };
}

async function until(check: () => boolean, ms = 5000) {
  for (const started = Date.now(); !check(); await sleep(20)) {
    if (Date.now() - started > ms) throw new Error(`not reached in ${ms} ms`);
  }
}

describe('listening on PostgreSQL', () => {
  it('listens on every channel of the process over one session, each handler hearing its own channel', async () => {
    const name = `listener-${randomBytes(4).toString('hex')}`;
    const url = new URL(testDatabaseUrl());
    url.searchParams.set('application_name', name);
    const listen = postgresListener(url.toString());
    const [keys, ends, moreEnds] = [recorder(), recorder(), recorder()];
    const stops = [
      await listen('test_keys', keys.handlers),
      await listen('test_ends', ends.handlers),
      await listen('test_ends', moreEnds.handlers),
    ];
    const admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    try {
      await until(() => [keys, ends, moreEnds].every((r) => r.heard.listening === 1));
      const sessions = await admin.query(
        'select count(*)::int as n from pg_stat_activity where application_name = $1',
        [name],
      );
      expect(sessions.rows[0].n).toBe(1);
      await admin.query("notify test_keys, 'a key'");
      await admin.query("notify test_ends, 'an end'");
      await until(() => keys.heard.payloads.length === 1 && moreEnds.heard.payloads.length === 1);
      expect([keys.heard.payloads, ends.heard.payloads, moreEnds.heard.payloads]).toEqual([
        ['a key'],
        ['an end'],
        ['an end'],
      ]);
      // The session goes when the last handler stops listening.
      for (const stop of stops) await stop();
      const left = await admin.query(
        'select count(*)::int as n from pg_stat_activity where application_name = $1',
        [name],
      );
      expect(left.rows[0].n).toBe(0);
      expect([keys, ends, moreEnds].map((r) => r.heard.lost)).toEqual([0, 0, 0]);
    } finally {
      await admin.end();
    }
  });
});
