import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from './cluster.ts';

/** The cluster's database as the machine reads it (a test core's `db`). */
export type Sql = { execute: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]> };

/**
 * The invariants a run on the test cluster is checked against, from the database and the processes' logs,
 * each answering its violations as text (none: held). Shared by the scripted faults
 * (tests/cluster-faults.test.ts) and the chaos runs (chaos.ts).
 */

/** Waits up to `ms` for every debate of `ids` to complete; answers those that did not, with their status. */
export async function unfinishedAfter(sql: Sql, ids: string[], ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const rows =
      ids.length === 0
        ? []
        : await sql.execute<{ id: string; status: string }>(
            `select id, status from debates where id in (?) and status <> 'completed'`,
            [ids],
          );
    if (rows.length === 0 || Date.now() > deadline) {
      return rows.map((row) => `debate ${row.id} accepted but ${row.status}, not completed`);
    }
    await sleep(250);
  }
}

/** A completed debate's record: events numbered 1..n, one verdict, one completion, one charge. */
export async function completedOnceViolations(sql: Sql, id: string): Promise<string[]> {
  const violations: string[] = [];
  const events = await sql.execute<{ seq: number; type: string }>(
    'select seq, type from debate_events where debate_id = ? order by seq',
    [id],
  );
  if (events.some((row, i) => row.seq !== i + 1)) violations.push(`debate ${id}: events not numbered 1..n`);
  for (const type of ['verdict', 'debate.completed']) {
    const count = events.filter((row) => row.type === type).length;
    if (count !== 1) violations.push(`debate ${id}: ${count} ${type} events`);
  }
  const charges = await sql.execute('select 1 from credit_ledger where debate_id = ? and delta < 0', [id]);
  if (charges.length !== 1) violations.push(`debate ${id}: charged ${charges.length} times`);
  return violations;
}

/** API answers of 5xx other than 503 (each request's one log line, the first few whole), deadlocks, stalls. */
export function serverFailureViolations(cluster: Cluster): string[] {
  const violations: string[] = [];
  for (const api of cluster.apis) {
    const failures = api
      .output()
      .split('\n')
      .filter((line) => /"status":5(?!03)\d\d/.test(line));
    if (failures.length > 0) {
      violations.push(
        `${api.name} answered ${failures.length} 5xx other than 503: ${failures.slice(0, 3).join(' | ').slice(0, 2000)}`,
      );
    }
  }
  if (cluster.postgres.output().includes('deadlock detected'))
    violations.push('PostgreSQL logged a deadlock');
  // The stall guard hands a stuck debate back, and it then completes: the invariants above would pass, and the
  // hang it recovered from would go unseen.
  for (const engine of cluster.engines) {
    const stalls = engine
      .output()
      .split('\n')
      .filter((line) => line.includes(': stalled, no step in'));
    if (stalls.length > 0) {
      violations.push(`${engine.name}: ${stalls.length} debate(s) stalled: ${stalls[0]?.slice(0, 1500)}`);
    }
  }
  return violations;
}
