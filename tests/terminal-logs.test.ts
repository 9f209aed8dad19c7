import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes of a colouring terminal are what is looked for
const ANSI = /\x1b\[[0-9;]*m/g;

/** Waits until `read()` matches `pattern`, or fails with what was read. */
async function until(read: () => string, pattern: RegExp, ms: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = pattern.exec(read());
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms: ${pattern}\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// `npm start` on a terminal, as a new user runs it: `script` gives the process a pseudo-terminal, so
// stdout.isTTY is true exactly as in a shell, and what it prints is what the user would see. `exec`: the
// server is the terminal's foreground process itself, not a shell's child (a shell that hears Ctrl-C too
// would report it as its own exit status).
describe('the server on a terminal', () => {
  let dataDir: string;
  let child: ChildProcess;
  let output = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-tty-'));
    child = spawn('script', ['-qfec', `exec ${process.execPath} apps/api/src/main.ts`, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
  }, 60_000);
  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints readable, coloured lines with the request id of each request, and stops on Ctrl-C', async () => {
    const plain = () => output.replace(ANSI, '');
    const [, baseUrl] = await until(plain, /listening at (http:\/\/[\d.:]+)/, 60_000);
    const res = await fetch(`${baseUrl}/v1/health`);
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id') ?? '';
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    await until(plain, new RegExp(`GET /v1/health 200[\\s\\S]*${requestId}`), 10_000);
    // Human-readable: coloured, no line of JSON.
    expect(output).toMatch(ANSI);
    const lines = plain()
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '');
    expect(lines.filter((line) => line.trimStart().startsWith('{"'))).toEqual([]);
    expect(plain()).toMatch(/INFO.*GET \/v1\/health 200/);

    // Ctrl-C at the terminal: the shutdown runs and the process exits 0.
    const exited = once(child, 'exit') as Promise<[number | null]>;
    child.stdin?.write('\x03');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(plain()).toMatch(/draining: \/ready answers 503/);
    expect(plain()).toMatch(/INFO.*stopped/);
  });
});
