import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeLlmServer } from '@verdict/engine/testing';
import type { ChaosReport } from './chaos.ts';
import type { Cluster } from './cluster.ts';
import type { Sql } from './invariants.ts';

/**
 * The run's artefacts (git ignores them), not TMPDIR: the test command removes the temporary folder of its
 * run at the end (infra/test.sh), and a report is read after the run.
 */
const REPORT_DIR = fileURLToPath(new URL('../../test-results', import.meta.url));

/** Debates whose evidence is gathered: the first few named, enough to see a pattern, not a novel. */
const DEBATES = 5;

/**
 * What a violation needs to be understood once the cluster is gone: for the first debates the violations
 * name, the debate's row (status, attempt, lease), its last events, the provider's requests for it, and
 * every log line of every process that names it; then every fault with its time. Written to a file
 * (its path is answered) while the cluster still runs.
 */
export async function writeViolationReport(
  cluster: Cluster,
  sql: Sql,
  fake: FakeLlmServer,
  faults: ChaosReport['faults'],
  violations: string[],
  seed: number,
): Promise<string> {
  const ids = [...new Set(violations.flatMap((v) => v.match(/[0-9a-f]{8}-[0-9a-f-]{27}/g) ?? []))];
  const sections: string[] = [`seed ${seed}`, ...violations, ''];
  for (const id of ids.slice(0, DEBATES)) {
    const [row] = await sql
      .execute(
        `select id, question, status, attempt, lease_owner, lease_epoch, lease_expires_at, interruptions,
                failure_code, created_at, now() as checked_at
           from debates where id = ?`,
        [id],
      )
      .catch(() => []);
    const events = await sql
      .execute<{ seq: number; type: string; created_at: string }>(
        'select attempt, seq, type, created_at from debate_events where debate_id = ? order by attempt, seq',
        [id],
      )
      .catch(() => []);
    const question = (row as { question?: string } | undefined)?.question ?? id;
    const asked = fake.requests
      .filter((request) => JSON.stringify(request.body).includes(question))
      .map((r) => `${new Date(r.receivedAt).toISOString()} ${r.model} ${r.outcome}`);
    const lines = [...cluster.apis, ...cluster.engines, cluster.postgres, cluster.nats].flatMap((process) =>
      process
        .output()
        .split('\n')
        .filter((line) => line.includes(id))
        .map((line) => `${process.name}: ${line.slice(0, 1500)}`),
    );
    sections.push(
      `== debate ${id}`,
      JSON.stringify(row ?? null),
      ...events.map((event) => JSON.stringify(event)),
      '-- provider requests',
      ...asked,
      '-- log lines naming it',
      ...lines,
      '',
    );
  }
  sections.push(
    '== faults',
    ...faults.map((f) => `${f.at} ${f.kind} ${f.target} recovered ${f.recoveryMs} ms`),
  );
  await mkdir(REPORT_DIR, { recursive: true });
  const path = join(REPORT_DIR, `verdict-chaos-${seed}-violations.txt`);
  await writeFile(path, sections.join('\n'));
  return path;
}
