import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createCore, loadConfig, refreshScore } from '@verdict/core';
import pg from 'pg';
import { FILL_VERSION, type FilledAccounts, fillHistory, HISTORY } from './history-fill.ts';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.ts';

/**
 * Where the filled cluster lives between runs: BENCH_HISTORY_DIR (default /var/tmp/verdict-bench-history,
 * which the postgres user can reach), in a folder named by the fill's version and counts (history-fill.ts):
 * a change to either fills a new cluster, and the folders of others are removed (each is ~15 GB).
 * Migrations added since a cluster was filled are applied to it when the API starts, as they would be in
 * production (their cost on tables of this size shows then); a migration edited in place needs the folder
 * removed by hand.
 */
function clusterDir(): { base: string; dir: string } {
  const hash = createHash('sha256').update(JSON.stringify(HISTORY)).digest('hex').slice(0, 8);
  const scale = process.env.BENCH_HISTORY_SCALE ?? '1';
  const base = `${process.env.BENCH_HISTORY_DIR ?? '/var/tmp/verdict-bench-history'}${scale === '1' ? '' : `-scale-${scale}`}`;
  return { base, dir: join(base, `fill-v${FILL_VERSION}-${hash}`) };
}

/** What a filled database holds beside the data: the measured accounts, their keys, the fill's cost. */
export type HistoryFill = FilledAccounts & {
  keys: { heavy: string; typical: string };
  fillSeconds: number;
};

export type HistoryDatabase = { postgres: PrivatePostgres; url: string; fill: HistoryFill };

const withDatabase = (url: string, name: string) => url.replace(/\/[^/]*$/, `/${name}`);

async function readFill(url: string): Promise<HistoryFill | null> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const rows = await client.query<{ fill: HistoryFill }>(
      `select fill from bench_history_fill where to_regclass('bench_history_fill') is not null`,
    );
    return rows.rows[0]?.fill ?? null;
  } catch {
    return null; // no such database or table: the fill never finished
  } finally {
    await client.end().catch(() => {});
  }
}

/** A new `history` database: migrated by the service, filled, scored once, marked filled last. */
async function fill(adminUrl: string, url: string, log: (line: string) => void): Promise<HistoryFill> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('drop database if exists history');
  await admin.query('create database history');
  await admin.end();
  const started = Date.now();
  const core = await createCore(
    loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', NODE_ENV: 'production' }),
  );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const keys = { heavy: '', typical: '' };
    const accounts = await fillHistory(
      client,
      async (a) => {
        const heavy = await core.apiKeys.create(a.heavy, 'history heavy', null);
        const typical = await core.apiKeys.create(a.typical, 'history typical', null);
        Object.assign(keys, { heavy: heavy.key, typical: typical.key });
        return [heavy.id, typical.id];
      },
      log,
    );
    // The stored scores the score worker keeps (GET /api/scores/me and its trend read them).
    for (const userId of [accounts.heavy, accounts.typical]) {
      await core.db.em().transactional((em) => refreshScore(em, userId));
    }
    const result: HistoryFill = { ...accounts, keys, fillSeconds: Math.round((Date.now() - started) / 1000) };
    await client.query('create table bench_history_fill (fill jsonb not null)');
    await client.query('insert into bench_history_fill values ($1)', [JSON.stringify(result)]);
    return result;
  } finally {
    await client.end();
    await core.close();
  }
}

/** The filled cluster, started; filled first when this hash has none (tens of minutes on 2 cores). */
export async function openHistoryDatabase(log: (line: string) => void): Promise<HistoryDatabase> {
  const { base, dir } = clusterDir();
  for (const other of readdirSafe(base)) {
    if (join(base, other) !== dir) {
      log(`removing the cluster of an older fill or schema: ${join(base, other)}`);
      await rm(join(base, other), { recursive: true, force: true });
    }
  }
  const postgres = await startPrivatePostgres(dir, log);
  const url = withDatabase(postgres.url, 'history');
  try {
    const existing = await readFill(url);
    if (existing) {
      log(`kept from an earlier run (filled in ${existing.fillSeconds} s): ${dir}`);
      return { postgres, url, fill: existing };
    }
    log(`filling ${dir}`);
    return { postgres, url, fill: await fill(postgres.url, url, log) };
  } catch (err) {
    postgres.stop();
    throw err;
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
