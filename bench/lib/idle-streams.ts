import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { DebatesApi } from './debates-servers.ts';

/**
 * Pieces of the idle-stream measurements (bench/suites/streams.ts, edge.ts): pending debates to follow (no
 * engine runs, so their streams carry nothing but keep-alives) and the database's transaction count.
 */

/** A pending debate of the API's first key; its stream's path. */
export async function createPending(api: DebatesApi, index: number): Promise<string> {
  const res = await fetch(`${api.baseUrl}/api/debates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.keys[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      question: `Should idle stream group ${index} wait for an engine?`,
      skipCache: true,
    }),
  });
  const body = (await res.json()) as { streamUrl: string };
  if (res.status !== 201)
    throw new Error(`POST /api/debates answered ${res.status}: ${JSON.stringify(body)}`);
  return new URL(body.streamUrl, api.baseUrl).pathname;
}

/** Committed transactions of the database `url` names (this query's own included). */
export function transactions(url: string): number {
  const out = execFileSync('psql', [
    url,
    '-Atc',
    'select xact_commit from pg_stat_database where datname = current_database()',
  ]);
  return Number(out.toString().trim());
}

/**
 * Reads and writes of the tables of `schema` (scans, index scans, rows inserted, updated, deleted): what the
 * service's own statements do to its data, and nothing else — not PostgreSQL's autovacuum and analyze, nor a
 * connection's liveness probe, which `transactions` counts alike. Like those counts, reported up to 10 s late.
 */
export function tableAccesses(url: string, schema: string): number {
  const out = execFileSync('psql', [
    url,
    '-Atc',
    `select coalesce(sum(seq_scan + coalesce(idx_scan, 0) + n_tup_ins + n_tup_upd + n_tup_del), 0)
       from pg_stat_user_tables where schemaname = '${schema.replaceAll("'", "''")}'`,
  ]);
  return Number(out.toString().trim());
}

/** The soft limit on open files of this process (children inherit it), from /proc; null where unknown. */
export function openFilesLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.trim().split(/\s{2,}/)[1];
    return soft === undefined || soft === 'unlimited' ? null : Number(soft);
  } catch {
    return null;
  }
}
