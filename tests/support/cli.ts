import { type ChildProcessByStdio, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { ROOT } from './packages.ts';
import { baseEnv } from './processes.ts';

/** The CLI from this workspace's sources (the SDK resolved to its sources too, by the verdict-source condition). */
export const CLI = [process.execPath, '--conditions=verdict-source', 'packages/cli/src/bin.ts'];

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

export type CliRun = { code: number; stdout: string; stderr: string };

/**
 * Runs `verdict …` as a user would: with `tty`, under a pseudo-terminal (util-linux `script`, 120 columns),
 * so stdout is a terminal; otherwise with stdout a pipe. `env` is the whole environment beside PATH.
 */
export async function runCli(args: string[], env: Record<string, string>, options: { tty?: boolean } = {}) {
  const command = options.tty
    ? [
        'script',
        '-qfec',
        `stty cols 120 rows 40; exec ${[...CLI, ...args].map(quote).join(' ')}`,
        '/dev/null',
      ]
    : [...CLI, ...args];
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return outputOf(child);
}

/** What a child process printed on stdout and stderr, and its exit code, once it has exited. */
export async function outputOf(
  child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>,
) {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr } satisfies CliRun;
}

/** Terminal escapes (colours, cursor moves) out of captured output. */
export const plain = (text: string) => stripVTControlCharacters(text);
