import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type HistoryDatabase, openHistoryDatabase } from '../lib/history-database.ts';
import { HISTORY } from '../lib/history-fill.ts';
import { capturePlans, type Latencies, measureLatency } from '../lib/history-measure.ts';
import { HISTORY_READS, type ReadSubject } from '../lib/history-reads.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { spawnServer } from '../lib/spawn-server.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** The plans of the last run, referenced from BENCHMARKS.md. */
const PLANS_FILE = join(ROOT, 'docs', 'plans', 'history.md');
/** Concurrent clients per read (BENCH_HISTORY_CONNECTIONS): one, so a figure is the read's own latency. */
const CONNECTIONS = Number(process.env.BENCH_HISTORY_CONNECTIONS ?? 1);
/** BENCH_HISTORY_READS: a comma-separated subset of the reads' labels, to look at a few again. */
const ONLY = process.env.BENCH_HISTORY_READS?.split(',').filter(Boolean);

type Account = 'heavy' | 'typical';
type Measured = { account: Account; label: string; path: string; latencies: Latencies; plans: string[] };

/** What each account's reads are about: a recent completed debate, the middle page of its list. */
async function subjectOf(db: HistoryDatabase, client: pg.Client, account: Account): Promise<ReadSubject> {
  const owner = db.fill[account];
  const debate = await client.query<{ id: string }>(
    `select id from debates where owner_id = $1 and status = 'completed' and deleted_at is null
      order by created_at desc limit 1`,
    [owner],
  );
  const count = await client.query<{ n: number }>(
    'select count(*)::int as n from debates where owner_id = $1 and deleted_at is null',
    [owner],
  );
  return {
    workspace: db.fill.workspace,
    debate: debate.rows[0]?.id as string,
    middlePage: Math.max(1, Math.floor((count.rows[0]?.n ?? 0) / 20 / 2)),
    ownsWorkspace: account === 'heavy',
  };
}

async function measureAccount(
  ctx: SuiteContext,
  db: HistoryDatabase,
  base: string,
  admin: pg.Client,
  account: Account,
): Promise<Measured[]> {
  const subject = await subjectOf(db, admin, account);
  const headers = { authorization: `Bearer ${db.fill.keys[account]}` };
  const logFile = join(db.postgres.dataDir, '..', 'postgres.log');
  const measured: Measured[] = [];
  for (const read of HISTORY_READS) {
    const path = read.path(subject);
    if (path === null || (ONLY && !ONLY.includes(read.label))) continue;
    let firstMs = 0;
    const plans = await capturePlans(admin, logFile, async () => {
      const started = performance.now();
      await fetch(`${base}${path}`, { headers }).then((r) => r.text());
      firstMs = performance.now() - started;
    });
    // A read of seconds (similar debates over 100,000 plain-array embeddings takes about a minute) is
    // warm after the request above, and three more of it are enough to say how far it is from 100 ms.
    const slow = firstMs > 1_000;
    const latencies = await measureLatency(`${base}${path}`, headers, {
      connections: CONNECTIONS,
      durationS: ctx.settings.durationS,
      warmupS: slow ? 0 : ctx.settings.warmupS,
      minRequests: slow ? 3 : 5,
    });
    ctx.log(
      `${account} ${read.label}: p50 ${latencies.p50.toFixed(1)} ms, p95 ${latencies.p95.toFixed(1)} ms, ` +
        `p99 ${latencies.p99.toFixed(1)} ms (${latencies.requests} requests${latencies.failures.length ? `, ${latencies.failures.length} FAILED: ${latencies.failures[0]}` : ''})`,
    );
    measured.push({ account, label: read.label, path, latencies, plans });
  }
  return measured;
}

function resultsOf(measured: Measured[], db: HistoryDatabase): BenchResult[] {
  return measured.flatMap(({ account, label, path, latencies: l }) => {
    const failures = l.failures.length
      ? `; FAILURES: ${l.failures.length}, first: ${l.failures[0]}`
      : '; all 2xx';
    const detail =
      `GET ${path} as the ${account} account (${account === 'heavy' ? HISTORY.heavy : HISTORY.typical} debates) ` +
      `in a database of ${HISTORY.debates} debates and ${HISTORY.debates * HISTORY.eventsPerDebate} events; ` +
      `${CONNECTIONS} client(s), ${l.requests} requests${failures}; filled in ${db.fill.fillSeconds} s`;
    const figure = (p: 'p50' | 'p95' | 'p99'): BenchResult => ({
      name: `history.${label}_${account}.${p}_ms`,
      value: l.failures.length ? Number.NaN : round(l[p]),
      unit: 'ms',
      better: 'lower',
      detail,
    });
    return [figure('p50'), figure('p95'), figure('p99')];
  });
}

async function writePlans(measured: Measured[]) {
  const sections = measured.map(({ account, label, path, latencies: l, plans }) =>
    [
      `## ${label}, ${account}: \`GET ${path.replace(/[0-9a-f-]{36}/g, '{id}')}\``,
      '',
      `p50 ${l.p50.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms (${l.requests} requests)`,
      '',
      ...plans.map((plan) => `\`\`\`\n${plan}\n\`\`\`\n`),
    ].join('\n'),
  );
  const header = [
    '# The history suite: plans of the reads',
    '',
    'Written by `npm run bench -- history` (bench/suites/history.ts); BENCHMARKS.md, "The history suite", says',
    'how to read it. Each read was requested once with auto_explain on: below, every statement PostgreSQL ran',
    "meanwhile, with `EXPLAIN (ANALYZE, BUFFERS)`, including the service's own background statements of that",
    `moment. Run of ${new Date().toISOString().slice(0, 16)} UTC on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}.`,
    '',
  ].join('\n');
  await writeFile(PLANS_FILE, `${header}\n${sections.join('\n')}`);
}

async function run(ctx: SuiteContext): Promise<BenchResult[]> {
  const db = await openHistoryDatabase(ctx.log);
  const admin = new pg.Client({ connectionString: db.url });
  try {
    await admin.connect();
    const server = await spawnServer<{ port: number }>(
      join(import.meta.dirname, '..', 'servers', 'history-api-server.ts'),
      {
        env: { DATABASE_URL: db.url },
        unset: ['DATA_DIR', 'NATS_URL', 'PORT', 'HOST', 'DATABASE_SCHEMA'],
        execArgv: [],
        readyTimeoutMs: 300_000,
      },
    );
    try {
      const base = `http://127.0.0.1:${server.info.port}`;
      const measured = [
        ...(await measureAccount(ctx, db, base, admin, 'heavy')),
        ...(await measureAccount(ctx, db, base, admin, 'typical')),
      ];
      await writePlans(measured);
      ctx.log(`plans written to ${PLANS_FILE}`);
      return resultsOf(measured, db);
    } finally {
      await server.stop();
    }
  } finally {
    await admin.end().catch(() => {});
    db.postgres.stop();
  }
}

export const suite: Suite = {
  description:
    `history: the reads that grow with an account's history, heavy (${HISTORY.heavy}) and typical (${HISTORY.typical} debates) ` +
    `accounts among ${HISTORY.debates} debates and ${HISTORY.debates * HISTORY.eventsPerDebate} events, p50/p95/p99 and plans`,
  optIn: true,
  run,
};
