import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestCore,
  type TestCore,
  testDatabaseUrl,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin, runApiExpectingRefusal, runEngineExpectingRefusal } from './support/processes.ts';

/** A loopback port nothing listens on: taken from the kernel, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

type Run = { code: number; stdout: string; stderr: string };

/** One line on stderr that says it all, nothing that looks like a stack trace anywhere, a failing exit. */
function expectOneLineRefusal(run: Run, shape: RegExp) {
  expect(run.code, `${run.stdout}${run.stderr}`).not.toBe(0);
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/^\s+at /m);
  const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
  expect(lines).toEqual([expect.stringMatching(shape)]);
}

const PROCESSES = [
  {
    name: 'npm start',
    run: (env: Record<string, string>) => runApiExpectingRefusal(env, 'apps/api/src/start.ts'),
  },
  { name: 'npm run start:api', run: (env: Record<string, string>) => runApiExpectingRefusal(env) },
  { name: 'npm run start:engine', run: (env: Record<string, string>) => runEngineExpectingRefusal(env) },
] as const;

// The distributed processes started against a PostgreSQL or NATS they cannot use: each says what is wrong
// in one line and exits, and none creates a database the operator did not name.
describe('starting the distributed processes without their PostgreSQL or NATS', () => {
  let db: TestCore;
  let pgPort: number;
  let natsPort: number;
  const schema = uniqueSchema('refusal');
  const misspelt = `verdcit_${uniqueSchema('x')}`;
  const databaseExists = async (name: string) =>
    (await db.core.db.execute('select 1 from pg_database where datname = ?', [name])).length > 0;

  beforeAll(async () => {
    // The schema the NATS cases run on, migrated once here: they get past the database to NATS.
    db = await createTestCore({ DATABASE_SCHEMA: schema });
    [pgPort, natsPort] = [await closedPort(), await closedPort()];
  });

  afterAll(async () => {
    await db?.cleanup();
  });

  for (const proc of PROCESSES) {
    it(`${proc.name} names an unreachable PostgreSQL, without its password, and exits`, async () => {
      const run = await proc.run({
        DATABASE_URL: `postgres://verdict:s3cret-pw@127.0.0.1:${pgPort}/verdict`,
        NATS_URL: testNatsUrl(),
      });
      expectOneLineRefusal(
        run,
        new RegExp(
          `^cannot reach PostgreSQL at 127\\.0\\.0\\.1:${pgPort} \\(connection refused\\); is it running\\? ` +
            `DATABASE_URL=postgres://verdict@127\\.0\\.0\\.1:${pgPort}/verdict$`,
        ),
      );
      expect(`${run.stdout}${run.stderr}`).not.toContain('s3cret-pw');
    });

    it(`${proc.name} names an unreachable NATS and exits`, async () => {
      const run = await proc.run({
        DATABASE_URL: testDatabaseUrl(),
        DATABASE_SCHEMA: schema,
        NATS_URL: `nats://127.0.0.1:${natsPort}`,
      });
      expectOneLineRefusal(
        run,
        new RegExp(
          `^cannot reach NATS at 127\\.0\\.0\\.1:${natsPort} \\(connection refused\\); is it running\\? ` +
            `NATS_URL=nats://127\\.0\\.0\\.1:${natsPort}$`,
        ),
      );
    });

    it(`${proc.name} refuses a database that does not exist, says how to create it, and creates nothing`, async () => {
      const run = await proc.run({
        DATABASE_URL: withDatabase(testDatabaseUrl(), misspelt),
        NATS_URL: testNatsUrl(),
      });
      expectOneLineRefusal(
        run,
        new RegExp(
          `^PostgreSQL at 127\\.0\\.0\\.1:\\d+ has no database "${misspelt}"; check DATABASE_URL=postgres://\\S+/${misspelt}, ` +
            'or create it with `npm run admin -- create-database`$',
        ),
      );
      expect(await databaseExists(misspelt)).toBe(false);
    });
  }

  // The bus is opened the same way by every process (composition/adapters.ts): one of them shows it.
  it('npm run start:engine refuses three stream replicas of a NATS that is a single server, and exits', async () => {
    const run = await runEngineExpectingRefusal({
      DATABASE_URL: testDatabaseUrl(),
      DATABASE_SCHEMA: schema,
      NATS_URL: testNatsUrl(),
      NATS_PREFIX: `${uniqueSchema('replicas')}.`,
      NATS_STREAM_REPLICAS: '3',
    });
    expectOneLineRefusal(
      run,
      /^NATS_STREAM_REPLICAS=3 asks for 3 copies of each stream, but NATS at 127\.0\.0\.1:\d+ is a single server, not a cluster: list the servers of a NATS cluster of at least 3 with JetStream in NATS_URL, or set NATS_STREAM_REPLICAS=1 \(NATS_URL=nats:\/\/127\.0\.0\.1:\d+\)$/,
    );
  });

  it('npm run admin -- create-database creates the database DATABASE_URL names, once', async () => {
    const name = `verdict_${uniqueSchema('created')}`;
    const env = { DATABASE_URL: withDatabase(testDatabaseUrl(), name), NATS_URL: testNatsUrl() };
    try {
      const created = await runAdmin(['create-database'], env);
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(
        new RegExp(`^created database "${name}" on PostgreSQL at 127\\.0\\.0\\.1:\\d+\\n$`),
      );
      expect(await databaseExists(name)).toBe(true);

      const again = await runAdmin(['create-database'], env);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(
        new RegExp(`^database "${name}" already exists on PostgreSQL at 127\\.0\\.0\\.1:\\d+\\n$`),
      );
    } finally {
      await db.core.db.execute(`drop database if exists "${name}"`);
    }
  });

  it('npm run admin -- create-database refuses without DATABASE_URL', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'verdict-create-database-'));
    try {
      const run = await runAdmin(['create-database'], { DATA_DIR: dataDir });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/^admin: create-database needs DATABASE_URL/);
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
