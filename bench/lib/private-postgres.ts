import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * A PostgreSQL cluster of a suite's own, in a data directory that outlives the run (unlike infra/test.sh's
 * throwaway one): a suite that spends minutes filling a database keeps it, and the next run starts the same
 * cluster again. Never the machine's own server. As root, initdb and postgres run as the `postgres` user
 * (they refuse root), so the directory must be one that user can reach: not under /root.
 */
export type PrivatePostgres = { url: string; dataDir: string; stop: () => void };

/** The bin directory of the newest installed PostgreSQL (infra/packages.sh installs one when missing). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  const newest = versions.at(-1);
  if (!newest) throw new Error('no PostgreSQL in /usr/lib/postgresql/*/bin (infra/packages.sh installs one)');
  return join(root, newest, 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the postgres user when we are root; throws with its output on failure. */
function runPg(bin: string, args: string[], cwd: string) {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(cmd, argv, { cwd, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${bin} ${args.join(' ')} failed: ${result.stdout}\n${result.stderr}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * Settings for a large, disposable cluster: no durability (a crash means filling again), memory for the
 * index builds of a fill, a checkpoint distance that keeps the fill from writing each page twice, and
 * auto_explain loaded but off.
 */
const SETTINGS = `
listen_addresses = '127.0.0.1'
max_connections = 100
# TCP only: the folder may be renamed or moved between runs.
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = minimal
max_wal_senders = 0
max_wal_size = '8GB'
shared_buffers = '1GB'
work_mem = '32MB'
maintenance_work_mem = '1GB'
effective_cache_size = '4GB'
random_page_cost = 1.1
# Plans of what a suite's requests run, when it turns auto_explain.log_min_duration to 0 for a while.
session_preload_libraries = 'auto_explain'
auto_explain.log_min_duration = -1
auto_explain.log_analyze = on
auto_explain.log_buffers = on
auto_explain.log_nested_statements = on
`;

/** Starts the cluster in `dir` (made with initdb the first time), on a free loopback port. */
export async function startPrivatePostgres(
  dir: string,
  log: (line: string) => void,
): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const dataDir = join(dir, 'pgdata');
  await mkdir(dir, { recursive: true });
  if (asRoot) execFileSync('chown', ['postgres:', dir]);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    log(`initdb ${dataDir}`);
    runPg(
      join(bin, 'initdb'),
      [
        '--pgdata',
        dataDir,
        '--username=postgres',
        '--auth=trust',
        '--encoding=UTF8',
        '--locale=C.UTF-8',
        '--no-sync',
      ],
      dir,
    );
    const conf = join(dataDir, 'postgresql.conf');
    await writeFile(conf, `${await readFile(conf, 'utf8')}\n# bench/lib/private-postgres.ts\n${SETTINGS}\n`);
  }
  const port = await freePort();
  runPg(
    join(bin, 'pg_ctl'),
    ['start', '-w', '-t', '120', '-D', dataDir, '-l', join(dir, 'postgres.log'), '-o', `-p ${port}`],
    dir,
  );
  log(`PostgreSQL ${bin.split('/').at(-2)} on 127.0.0.1:${port} (${dataDir})`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    stop: () => runPg(join(bin, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'fast', '-t', '120'], dir),
  };
}
