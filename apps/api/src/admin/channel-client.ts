import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type LockHolder, liveHolder, OperatorError } from '@verdict/core/entry';
import {
  AdminCommandError,
  type ChannelInfo,
  type ChannelReply,
  type ChannelRequest,
  channelInfoPath,
  readLine,
} from './channel.ts';

/** A first start without a prepared database can take half a minute before the channel opens. */
const WAIT_FOR_CHANNEL_MS = 120_000;
/** Commands are single transactions; far longer means the server is stuck. */
const WAIT_FOR_ANSWER_MS = 60_000;

/**
 * Runs `argv` inside the embedded server that holds `dataDir`, over its admin channel, and returns the
 * lines to print. Succeeds only with the server's own answer, sent after the command committed; every
 * other outcome is an error saying whether the command may have run.
 */
export async function runThroughServer(
  dataDir: string,
  server: LockHolder,
  argv: string[],
  say: (line: string) => void,
): Promise<string[]> {
  const info = await channelOf(dataDir, server, say);
  const reply = await ask(info, { secret: info.secret, argv });
  if (!reply.ok) throw new AdminCommandError(reply.error.code, reply.error.message);
  return reply.lines;
}

/** The channel `server` announced, waiting while it is still starting. */
async function channelOf(dataDir: string, server: LockHolder, say: (line: string) => void) {
  const started = Date.now();
  let announced = false;
  for (;;) {
    const info = await readInfo(dataDir);
    if (info?.lockId === server.id) return info;
    if ((await liveHolder(dataDir))?.id !== server.id) {
      throw new OperatorError(
        `the server (pid ${server.pid}) stopped before it could take the command; run it again`,
      );
    }
    if (Date.now() - started > WAIT_FOR_CHANNEL_MS) {
      throw new OperatorError(
        `the server holding DATA_DIR (pid ${server.pid}) offers no admin channel; nothing was changed`,
      );
    }
    if (!announced && Date.now() - started > 1000) {
      say(`waiting for the server (pid ${server.pid}) to finish starting…`);
      announced = true;
    }
    await sleep(100);
  }
}

async function readInfo(dataDir: string): Promise<ChannelInfo | null> {
  try {
    return JSON.parse(await readFile(channelInfoPath(dataDir), 'utf8')) as ChannelInfo;
  } catch {
    return null; // absent, or being replaced
  }
}

async function ask(info: ChannelInfo, request: ChannelRequest): Promise<ChannelReply> {
  const socket = connect(info.socket);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve).once('error', reject);
    });
  } catch (err) {
    throw new OperatorError(
      `cannot reach the server's admin channel (${(err as Error).message}); nothing was changed`,
    );
  }
  socket.on('error', () => {}); // reported by readLine
  socket.write(`${JSON.stringify(request)}\n`);
  try {
    return JSON.parse(await readLine(socket, WAIT_FOR_ANSWER_MS)) as ChannelReply;
  } catch (err) {
    throw new OperatorError(
      `the server took the command but gave no answer (${(err as Error).message}); ` +
        'it may or may not have been applied: check before running it again',
    );
  } finally {
    socket.destroy();
  }
}
