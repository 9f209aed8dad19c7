/**
 * The embedded default as `npm start` runs it — the API, an in-process engine node on the simulated debater
 * model and PGlite in DATA_DIR, one process and one event loop — for bench/suites/embedded.ts. What differs
 * from apps/api/src/main.ts is only the accounts: BENCH_USERS accounts on the pro plan with credits and a
 * rate limit that is checked, never spent, each with a key. Once listening it prints {"port","keys"}.
 */
import { buildServer } from '@verdict/api';
import { createCore, loadConfig, nudgeMemoryReducer } from '@verdict/core';
import { engineNodeFor } from '@verdict/engine';
import type { FastifyInstance } from 'fastify';
import { listenAndReport } from '../lib/spawn-server.ts';

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
if (config.database.kind !== 'pglite' || config.nats.kind !== 'memory') {
  throw new Error('embedded-api-server needs DATA_DIR and no DATABASE_URL or NATS_URL');
}
const users = Number(process.env.BENCH_USERS ?? '1');
if (!Number.isInteger(users) || users < 1) throw new Error('BENCH_USERS must be a positive integer');
nudgeMemoryReducer();
const core = await createCore(config);
const engine = engineNodeFor(core);
if (!engine.simulated) throw new Error('embedded-api-server runs debates on the simulated model only');

async function release() {
  await engine.stop();
  await core.close();
}

let app: FastifyInstance;
let ready: { keys: string[] };
try {
  const keys: string[] = [];
  for (let i = 0; i < users; i++) {
    const user = await core.accounts.createUser({
      email: `bench-${process.pid}-${i}@example.com`,
      name: 'Bench',
    });
    await core.accounts.setPlan(user.id, 'pro');
    await core.billing.grantCredits(user.id, 1_000_000, 'bench');
    await core.accounts.setRateLimit(user.id, 100_000);
    keys.push((await core.apiKeys.create(user.id, 'bench', null)).key);
  }
  app = await buildServer({ core });
  engine.start();
  ready = { keys };
} catch (err) {
  await release();
  throw err;
}
await listenAndReport(app, release, (port) => ({ port, ...ready }));
