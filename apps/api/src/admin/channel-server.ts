import { randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { chmod, lstat, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, type Core, type DataDirLock, OperatorError, withAuditContext } from '@verdict/core';
import {
  type ChannelInfo,
  type ChannelReply,
  type ChannelRequest,
  channelInfoPath,
  readLine,
  runDir,
} from './channel.ts';
import { operatorContext, runAdminCommand } from './commands.ts';

/** Unix socket paths are limited to about 107 bytes; a deep DATA_DIR gets a private folder in /tmp. */
const MAX_SOCKET_PATH = 100;

/** A pino logger fits. */
type Log = {
  info: (details: Record<string, unknown>, message: string) => void;
  warn: (details: Record<string, unknown>, message: string) => void;
};

/**
 * Serves `npm run admin` commands on the live database (see channel.ts). Embedded mode only, started
 * once the core is open. `close` takes no new command and waits for those under way, so a stopping
 * server never closes the database under a command it accepted; call it before closing the core.
 */
export async function serveAdminChannel(core: Core, lock: DataDirLock, log: Log) {
  const dir = await privateDirectory(runDir(lock.dir));
  let socketPath = join(dir, 'admin.sock');
  let spareDir: string | undefined;
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    spareDir = await mkdtemp(join(tmpdir(), 'verdict-admin-')); // mode 0700
    socketPath = join(spareDir, 'admin.sock');
  }
  // We hold the lock: a socket file here is a dead server's.
  await rm(socketPath, { force: true });
  const secret = randomBytes(32);
  const underWay = new Set<Promise<void>>();
  const waiting = new Set<Socket>(); // connected, request not read yet
  const server = createServer((socket) => {
    waiting.add(socket);
    const answering = answer(socket, core, secret, log, () => waiting.delete(socket)).finally(() =>
      underWay.delete(answering),
    );
    underWay.add(answering);
  });
  server.listen(socketPath);
  await once(server, 'listening');
  await chmod(socketPath, 0o600);
  const info: ChannelInfo = {
    lockId: lock.holder.id,
    pid: process.pid,
    socket: socketPath,
    secret: secret.toString('base64url'),
  };
  const infoPath = channelInfoPath(lock.dir);
  await writeFile(`${infoPath}.tmp`, JSON.stringify(info), { mode: 0o600 });
  await rename(`${infoPath}.tmp`, infoPath);

  return {
    close: async () => {
      await rm(infoPath, { force: true });
      server.close();
      for (const socket of waiting) socket.destroy();
      await rm(socketPath, { force: true });
      await Promise.allSettled(underWay);
      if (spareDir) await rm(spareDir, { recursive: true, force: true });
    },
  };
}

async function answer(socket: Socket, core: Core, secret: Buffer, log: Log, read: () => void) {
  socket.on('error', () => {}); // a client that went away; nothing to answer
  let reply: ChannelReply;
  try {
    const line = await readLine(socket, 10_000).finally(read);
    const request = JSON.parse(line) as ChannelRequest;
    const given = Buffer.from(String(request.secret), 'base64url');
    if (given.length !== secret.length || !timingSafeEqual(given, secret) || !Array.isArray(request.argv)) {
      log.warn({}, 'admin channel: refused a request without the right secret');
      reply = { ok: false, error: { code: 'UNAUTHORIZED', message: 'admin channel: request refused' } };
    } else {
      const argv = request.argv.map(String);
      log.info({ command: argv[0] }, 'admin command through the admin channel'); // options may hold a password
      const lines = await withAuditContext(operatorContext(argv), () => runAdminCommand(core, argv));
      reply = { ok: true, lines };
    }
  } catch (err) {
    reply = { ok: false, error: describe(err) };
    if (reply.error.code === 'INTERNAL_ERROR') log.warn({ err }, 'admin command failed');
  }
  socket.end(`${JSON.stringify(reply)}\n`);
}

/** What the client prints: the message of a refusal, and for anything else its message too (local only). */
function describe(err: unknown): { code: string; message: string } {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  const code = (err as { code?: unknown }).code;
  return {
    code: typeof code === 'string' ? code : 'INTERNAL_ERROR',
    message: String((err as Error).message),
  };
}

/** `path` as a directory only this user can enter: created 0700, or checked and tightened if it exists. */
async function privateDirectory(path: string): Promise<string> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  const stat = await lstat(path);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) {
    throw new OperatorError(`${path} must be a directory owned by this user (it holds the admin channel)`);
  }
  if ((stat.mode & 0o077) !== 0) await chmod(path, 0o700);
  return path;
}
