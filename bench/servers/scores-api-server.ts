/**
 * The API with an engine node in the same process (the embedded arrangement, on PostgreSQL in a fresh
 * schema, bus in memory), for the scores suite. Before listening it seeds, with SQL, three accounts with a
 * key each: `small` with 10 resolved outcomes, `large` with BENCH_LARGE_OUTCOMES (default 10,000), both
 * scored once as the score worker would; and `fresh` with BENCH_PENDING_OUTCOMES (default 60) completed
 * debates whose outcomes are pending, which the suite records one by one to time outcome → score.
 * Prints {"port","keys":{small,large,fresh},"pending":[debate ids]} on stdout. Drops its schema on stop.
 */
import { buildServer } from '@verdict/api';
import { createCore, loadConfig, refreshScore } from '@verdict/core';
import { engineNodeFor } from '@verdict/engine';
import { dropBenchSchema } from '../lib/drop-schema.ts';
import { listenAndReport } from '../lib/spawn-server.ts';

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
const core = await createCore(config);
const node = engineNodeFor(core);

async function release() {
  await node.stop();
  if (config.database.kind === 'postgres') {
    await dropBenchSchema(core.db, config.database.schema);
  }
  await core.close();
}

/** `count` completed debates of `userId` with outcomes: resolved (a fixed mix) or pending. */
async function seed(userId: string, count: number, resolved: boolean) {
  const rows = await core.db.execute<{ id: string }>(
    `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds,
       verdict, completed_at, created_at, domain)
     select ?, 'Seeded decision ' || g, 'fast', 'completed', 'user_credits', 3, 1,
            '{"recommendation":"PROCEED","confidence":0.7}'::jsonb,
            now() - make_interval(hours => g), now() - make_interval(hours => g),
            (array['business','technology','health','finance'])[1 + g % 4]
       from generate_series(1, ?) as g
     returning id`,
    [userId, count],
  );
  await core.db.execute(
    `insert into outcomes (debate_id, owner_id, status, confidence, recommendation, domain, created_at, recorded_at)
     select d.id, d.owner_id,
            case when not ? then 'pending'
                 else (array['correct','partially_correct','wrong','correct'])[1 + (row_number() over ())::int % 4] end,
            0.5 + ((row_number() over ())::int % 50) / 100.0, 'PROCEED', d.domain, d.created_at,
            case when ? then d.completed_at + interval '1 day' end
       from debates d where d.owner_id = ?`,
    [resolved, resolved, userId],
  );
  if (resolved) await core.db.em().transactional((em) => refreshScore(em, userId));
  return rows.map((r) => r.id);
}

let ready: { keys: Record<string, string>; pending: string[] };
const app = await (async () => {
  try {
    const keys: Record<string, string> = {};
    let pending: string[] = [];
    for (const [label, count, resolved] of [
      ['small', 10, true],
      ['large', Number(process.env.BENCH_LARGE_OUTCOMES ?? 10_000), true],
      ['fresh', Number(process.env.BENCH_PENDING_OUTCOMES ?? 60), false],
    ] as const) {
      const user = await core.accounts.createUser({
        email: `bench-${label}-${process.pid}@example.com`,
        name: label,
      });
      await core.accounts.setRateLimit(user.id, 100_000);
      keys[label] = (await core.apiKeys.create(user.id, label, null)).key;
      const ids = await seed(user.id, count, resolved);
      if (!resolved) pending = ids;
    }
    ready = { keys, pending };
    const server = await buildServer({ core });
    node.start();
    return server;
  } catch (err) {
    await release();
    throw err;
  }
})();
await listenAndReport(app, release, (port) => ({ port, ...ready }));
