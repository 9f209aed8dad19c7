import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from './nats-server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type RunningProcess = {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
};

/**
 * Starts a process of this repository (`apps/api/src/main.ts` is what `npm start` runs) and resolves once
 * its log shows `ready`. The env is the whole environment of the child: nothing leaks in.
 */
async function startProcess(
  entry: string,
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs: number,
): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...baseEnv(), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // a process that never became ready must not outlive the test
      reject(new Error(`${entry} did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code} before it was ready:\n${output}`));
    });
  });
  return { child, match, output: () => output };
}

/** Longer than any shutdown takes (a drain included): a process still there by then is stuck. */
const STOP_TIMEOUT_MS = 30_000;

/**
 * Sends `signal` and resolves once the process exited. One that does not exit within STOP_TIMEOUT_MS is
 * killed, and the stop fails saying so: a stuck shutdown is a defect to see, not to wait on.
 */
const stopper =
  (child: ChildProcess) =>
  async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const stuck = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!stuck) return;
    child.kill('SIGKILL');
    await exited;
    throw new Error(`the process did not exit within ${STOP_TIMEOUT_MS} ms of ${signal}; killed`);
  };

export async function startApi(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningProcess> {
  // A port chosen here, not by the kernel at listen (PORT=0), as an operator sets PORT: a restart on the
  // same port (restartApi) must be able to bind it again while the connections the old process closed
  // linger in TIME_WAIT, which Linux allows for a port bound by number but not for one uWebSockets.js's
  // listener was given by the kernel.
  const port = env.PORT && env.PORT !== '0' ? env.PORT : String(await freePort());
  const started = await startProcess(
    'apps/api/src/main.ts',
    { ...env, PORT: port },
    /listening at (http:\/\/[\d.:]+)/,
    timeoutMs,
  );
  return {
    baseUrl: started.match[1] ?? '',
    child: started.child,
    output: started.output,
    stop: stopper(started.child),
  };
}

export type RunningEngine = {
  child: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

/** Starts an engine node process (`npm run start:engine`). */
export async function startEngine(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningEngine> {
  const started = await startProcess('apps/engine/src/main.ts', env, /engine node started/, timeoutMs);
  return { child: started.child, output: started.output, stop: stopper(started.child) };
}

/** Runs `npm run admin -- …`'s entry point to completion. */
export function runAdmin(args: string[], env: Record<string, string>) {
  return runToExit(['apps/api/src/admin.ts', ...args], env);
}

/**
 * Runs the API process when it is expected to refuse to start: resolves once it exits. Should it get ready
 * after all, it is stopped, and exits 0. `entry` is main.ts (`npm run start:api`) or start.ts (`npm start`).
 */
export function runApiExpectingRefusal(env: Record<string, string>, entry = 'apps/api/src/main.ts') {
  return runToExit([entry], { PORT: '0', LOG_LEVEL: 'info', ...env }, /listening at/);
}

/** Runs an engine node (`npm run start:engine`) expected to refuse to start, like runApiExpectingRefusal. */
export function runEngineExpectingRefusal(env: Record<string, string>) {
  return runToExit(['apps/engine/src/main.ts'], { LOG_LEVEL: 'info', ...env }, /engine node started/);
}

async function runToExit(args: string[], env: Record<string, string>, unwanted?: RegExp) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
    if (unwanted?.test(stdout)) child.kill('SIGTERM'); // it started after all: the exit code says so
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

/**
 * What every process a test starts gets of the test run's environment: PATH, and Node's compile cache when
 * the test command set one (infra/test.sh): each start after the first reads the module graph compiled
 * instead of compiling it again, about half a start's CPU. Nothing else leaks in: each test says the rest.
 */
export function baseEnv(): Record<string, string> {
  const cache = process.env.NODE_COMPILE_CACHE;
  return { PATH: process.env.PATH ?? '', ...(cache ? { NODE_COMPILE_CACHE: cache } : {}) };
}
