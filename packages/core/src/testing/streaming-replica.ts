import { execFile, execFileSync } from 'node:child_process';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A primary PostgreSQL and a hot standby streaming from it, both of the test's own. */
export type StreamingPair = {
  primaryUrl: string;
  replicaUrl: string;
  /** Runs SQL on the standby as the superuser (pg_wal_replay_pause(), pg_last_wal_replay_lsn() …). */
  onReplica: (sql: string) => Promise<string>;
  /** Stops both servers and removes their folder. */
  stop: () => Promise<void>;
};

/**
 * A fresh primary (initdb; its default pg_hba.conf lets local replication connections in) and a standby made
 * from it with `pg_basebackup -R`, on loopback ports, in a temporary folder: nothing of the run's shared
 * PostgreSQL changes. The binaries are PG_BIN's (set by infra/test.sh). About two seconds on this machine.
 */
export async function startStreamingPair(pgBin = process.env.PG_BIN): Promise<StreamingPair> {
  if (!pgBin) throw new Error('PG_BIN is not set: run the tests with `npm test` (infra/test.sh sets it)');
  const dir = await mkdtemp(join(tmpdir(), 'verdict-replica-'));
  // initdb and postgres refuse to run as root: as root, they run as the Debian package's postgres user.
  const asPostgres =
    process.getuid?.() === 0 ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups'] : [];
  await chmod(dir, 0o700);
  if (asPostgres.length > 0) await chown(dir, ...postgresIds());
  const pg = (tool: string, args: string[]) => {
    const [command, ...rest] = [...asPostgres, join(pgBin, tool), ...args];
    return run(command as string, rest, { cwd: dir });
  };
  const primary = join(dir, 'primary');
  const standby = join(dir, 'standby');
  const stop = async () => {
    for (const data of [standby, primary])
      await pg('pg_ctl', ['stop', '-D', data, '-m', 'immediate']).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await pg('initdb', [
      '-D',
      primary,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '--locale=C.UTF-8',
      '-E',
      'UTF8',
    ]);
    const primaryPort = await freePort();
    await pg('pg_ctl', [
      'start',
      '-w',
      '-D',
      primary,
      '-l',
      join(dir, 'primary.log'),
      '-o',
      serverOptions(dir, primaryPort),
    ]);
    // -c fast: a spread checkpoint would make the backup wait minutes.
    await pg('pg_basebackup', [
      '-D',
      standby,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
    ]);
    const replicaPort = await freePort();
    await pg('pg_ctl', [
      'start',
      '-w',
      '-D',
      standby,
      '-l',
      join(dir, 'standby.log'),
      '-o',
      serverOptions(dir, replicaPort),
    ]);
    return {
      primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
      replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
      onReplica: async (sql) =>
        (
          await pg('psql', ['-h', '127.0.0.1', '-p', String(replicaPort), '-U', 'postgres', '-Atc', sql])
        ).stdout.trim(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Loopback only, the socket in the pair's folder, and no durability: the folder goes at the end. */
const serverOptions = (dir: string, port: number) =>
  `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=50`;

function postgresIds(): [number, number] {
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return [uid, gid];
}

/** A loopback port the kernel just handed out and took back. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
