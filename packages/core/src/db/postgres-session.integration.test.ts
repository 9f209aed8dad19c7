import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../testing/index.ts';
import { keepSession } from './postgres-session.ts';

/** Holds the event loop for `ms`, as a long collection of a big heap or a long synchronous task does. */
function holdEventLoop(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: no timer, no socket is served meanwhile
  }
}

describe('a kept PostgreSQL session', () => {
  it('is not taken for lost when the event loop was held past its probe’s timeout, and still hears notifications', async () => {
    const told = { lost: 0, ready: 0, notifications: [] as string[] };
    const end = await keepSession(testDatabaseUrl(), {
      setup: async (client) => {
        await client.query('listen session_probe_test');
      },
      onNotification: (message) => told.notifications.push(message.payload ?? ''),
      onLost: () => {
        told.lost += 1;
      },
      onReady: () => {
        told.ready += 1;
      },
    });
    try {
      expect(told.ready).toBe(1);
      // The loop is held right after a probe is sent, past its 750 ms timeout: its answer waits in the socket.
      const query = pg.Client.prototype.query;
      let holds = 3;
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const sent = (query as (...a: unknown[]) => unknown).apply(this, args);
        if (args[0] === 'select 1' && holds > 0) {
          holds -= 1;
          // Held from the next turn on, before the answer is read: the next turn starts with expired timers.
          setImmediate(() => holdEventLoop(1200));
        }
        return sent;
      } as typeof query;
      try {
        for (let i = 0; i < 100 && holds > 0; i++) await sleep(50);
      } finally {
        pg.Client.prototype.query = query;
      }
      expect(holds).toBe(0);
      await sleep(1200);
      expect(told).toMatchObject({ lost: 0, ready: 1 });
      const writer = new pg.Client({ connectionString: testDatabaseUrl() });
      await writer.connect();
      await writer.query("notify session_probe_test, 'still heard'");
      await writer.end();
      for (let i = 0; i < 100 && told.notifications.length === 0; i++) await sleep(20);
      expect(told.notifications).toEqual(['still heard']);
    } finally {
      await end();
    }
  });
});
