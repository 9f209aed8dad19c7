import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from './cluster.ts';
import type { Sql } from './invariants.ts';

/**
 * Scheduled debates under faults. Schedules run daily at the earliest, so the run plays the clock: it makes a
 * schedule due (its next_run_at a second ago, written to the database as time passing would) once the run
 * before has fired, and keeps each due time it set. The engines' schedulers must fire each of those exactly
 * once: one debate per due run, none for a time never due.
 */
export async function startScheduleClock(
  cluster: Cluster,
  cookie: string,
  sql: Sql,
  options: { schedules: number; everyMs: () => number },
) {
  const api = cluster.apis[0] as Cluster['apis'][number];
  const ids: string[] = [];
  for (let i = 1; i <= options.schedules; i++) {
    const res = await fetch(`${api.baseUrl}/api/scheduled-debates`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        question: `Should the chaos run's schedule ${i} go ahead?`,
        frequency: 'daily',
        timeOfDay: farFromNow(),
      }),
    });
    if (res.status !== 201) throw new Error(`schedule creation answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  /** The due times set, by schedule (ISO text as PostgreSQL wrote it). */
  const dueTimes = new Map<string, string[]>(ids.map((id) => [id, []]));
  let running = true;
  const loop = (async () => {
    while (running) {
      await sleep(options.everyMs());
      for (const id of ids) {
        const last = dueTimes.get(id)?.at(-1);
        if (last && !(await hasFired(sql, id, last).catch(() => false))) continue;
        const due = await makeDue(sql, id).catch(() => null);
        if (due) dueTimes.get(id)?.push(due);
        break;
      }
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return dueTimes;
    },
  };
}

/**
 * A time of day 12 hours from now: each run moves a schedule on to its next daily time, which must not come
 * due by itself during the run (a run is at most 4 hours) and be mistaken for a firing the run never set.
 */
function farFromNow(): string {
  const hour = (new Date().getUTCHours() + 12) % 24;
  return `${String(hour).padStart(2, '0')}:00`;
}

const hasFired = async (sql: Sql, scheduleId: string, runAt: string) =>
  (
    await sql.execute('select 1 from scheduled_runs where schedule_id = ? and run_at = ?::timestamptz', [
      scheduleId,
      runAt,
    ])
  ).length > 0;

/** Makes the schedule due a second ago; answers that due time. */
async function makeDue(sql: Sql, scheduleId: string): Promise<string> {
  const [row] = await sql.execute<{ due: string }>(
    `update scheduled_debates set next_run_at = date_trunc('milliseconds', now()) - interval '1 second'
      where id = ? returning to_char(next_run_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as due`,
    [scheduleId],
  );
  if (!row) throw new Error(`schedule ${scheduleId} is gone`);
  return row.due;
}

/**
 * Each due time set fired exactly once (its run's row, within `ms`), no run fired for a time never set, no
 * run was refused, and each schedule's runCount is its runs; answers the violations and the debates the
 * runs made (to be checked as every other debate is).
 */
export async function scheduleViolations(sql: Sql, dueTimes: Map<string, string[]>, ms: number) {
  const deadline = Date.now() + ms;
  const ids = [...dueTimes.keys()];
  for (;;) {
    const runs = await sql.execute<{ schedule_id: string; run_at: string; debate_id: string }>(
      `select schedule_id, debate_id,
              to_char(run_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as run_at
         from scheduled_runs where schedule_id in (?)`,
      [ids],
    );
    const fired = new Set(runs.map((run) => `${run.schedule_id} ${run.run_at}`));
    const missing = [...dueTimes].flatMap(([id, times]) =>
      times
        .filter((time) => !fired.has(`${id} ${time}`))
        .map((time) => `schedule ${id}: due at ${time}, not fired`),
    );
    if (missing.length > 0 && Date.now() < deadline) {
      await sleep(500);
      continue;
    }
    const set = new Set([...dueTimes].flatMap(([id, times]) => times.map((time) => `${id} ${time}`)));
    const violations = [
      ...missing,
      ...runs
        .filter((run) => !set.has(`${run.schedule_id} ${run.run_at}`))
        .map((run) => `schedule ${run.schedule_id}: fired for ${run.run_at}, never due`),
    ];
    const counts = await sql.execute<{ id: string; run_count: number; last_failure: string | null }>(
      'select id, run_count, last_failure_code as last_failure from scheduled_debates where id in (?)',
      [ids],
    );
    for (const row of counts) {
      const made = runs.filter((run) => run.schedule_id === row.id).length;
      if (Number(row.run_count) !== made)
        violations.push(`schedule ${row.id}: runCount ${row.run_count}, ${made} runs`);
      if (row.last_failure) violations.push(`schedule ${row.id}: a run was refused (${row.last_failure})`);
    }
    return { violations, debates: runs.map((run) => run.debate_id) };
  }
}
