import type { Socket } from 'node:net';
import { join } from 'node:path';
import { OperatorError } from '@verdict/core/entry';

/**
 * The admin channel of an embedded server: `npm run admin` hands its command to the server that holds
 * DATA_DIR, which runs it on the live database. A Unix socket (mode 0600) in `DATA_DIR/run` (mode 0700),
 * one JSON line each way per connection. `DATA_DIR/run/admin.json` (mode 0600) tells the client where the
 * socket is, which lock holder serves it, and the secret every request must carry.
 */

export type ChannelInfo = { lockId: string; pid: number; socket: string; secret: string };
export type ChannelRequest = { secret: string; argv: string[] };
export type ChannelReply =
  | { ok: true; lines: string[] }
  | { ok: false; error: { code: string; message: string } };

export const runDir = (dataDir: string) => join(dataDir, 'run');
export const channelInfoPath = (dataDir: string) => join(runDir(dataDir), 'admin.json');

/** Largest line either side accepts; a command line is a few hundred bytes. */
export const MAX_LINE_BYTES = 64 * 1024;

/** A command the server refused or that failed there, with the code it had (VALIDATION_ERROR …). */
export class AdminCommandError extends OperatorError {
  override name = 'AdminCommandError';
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** Resolves with the first line the peer sends (without the newline); rejects if it ends first. */
export function readLine(socket: Socket, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const done = (err: Error | null, line?: string) => {
      clearTimeout(timer);
      socket.off('data', onData).off('end', onEnd).off('error', done);
      if (err) reject(err);
      else resolve(line ?? '');
    };
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline >= 0) done(null, buffered.slice(0, newline));
      else if (buffered.length > MAX_LINE_BYTES) done(new Error('line too long'));
    };
    const onEnd = () => done(new Error('connection closed before a complete line'));
    const timer = setTimeout(() => done(new Error(`no line within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', onData).on('end', onEnd).on('error', done);
  });
}
