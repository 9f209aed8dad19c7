import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Verdict } from '@verdict/sdk';
import { CliError, EXIT } from './exit-codes.ts';
import { MAX_RATE_LIMIT_WAIT_MS, type NoticeStream, retryWaiter } from './retry-wait.ts';

export type StoredConfig = { url?: string; apiKey?: string };

export const DEFAULT_URL = 'http://localhost:3000';

/** The user's config file: $XDG_CONFIG_HOME/verdict/config.json (%APPDATA% on Windows, ~/.config else). */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME ||
    (process.platform === 'win32' && env.APPDATA ? env.APPDATA : join(env.HOME || homedir(), '.config'));
  return join(base, 'verdict', 'config.json');
}

export async function readConfig(env: NodeJS.ProcessEnv = process.env): Promise<StoredConfig> {
  try {
    return JSON.parse(await readFile(configPath(env), 'utf8')) as StoredConfig;
  } catch {
    return {};
  }
}

/** Writes the config readable by its owner only (0600): it holds a key with full account access. */
export async function writeConfig(config: StoredConfig, env: NodeJS.ProcessEnv = process.env) {
  const path = configPath(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600); // an existing file keeps its old mode on write
  return path;
}

/** The URL and key in force: VERDICT_URL / VERDICT_API_KEY override the stored login. */
export async function resolveCredentials(env: NodeJS.ProcessEnv = process.env) {
  const stored = await readConfig(env);
  return {
    url: env.VERDICT_URL || stored.url || DEFAULT_URL,
    apiKey: env.VERDICT_API_KEY || stored.apiKey,
  };
}

/** How a command's calls retry: `retry: false` (--no-retry) fails at once; waits are told on `notices`. */
export type RetryPolicy = { retry: boolean; notices: NoticeStream };

/**
 * A client whose calls wait out a rate limit of up to a minute (telling `notices`, stderr) and retry, as
 * often as VERDICT_MAX_RETRIES says (default the SDK's 2); with `retry: false`, or VERDICT_MAX_RETRIES=0,
 * they fail at once.
 */
export function newClient(
  credentials: { url: string; apiKey: string },
  policy: RetryPolicy,
  env: NodeJS.ProcessEnv = process.env,
): Verdict {
  const retries = env.VERDICT_MAX_RETRIES;
  const fromEnv = retries !== undefined && /^\d+$/.test(retries) ? Number(retries) : undefined;
  const maxRetries = policy.retry ? fromEnv : 0;
  return new Verdict({
    baseUrl: credentials.url,
    apiKey: credentials.apiKey,
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    // Retry-After as the server says it, up to the longest wait the CLI sits out (the SDK caps it at 30 s).
    backoff: { maxDelayMs: MAX_RATE_LIMIT_WAIT_MS },
    waitBeforeRetry: retryWaiter(policy.notices),
  });
}

/** A client for commands that need a key; exits 3 when there is none. */
export async function clientFromConfig(
  policy: RetryPolicy,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Verdict> {
  const { url, apiKey } = await resolveCredentials(env);
  if (!apiKey) throw new CliError('Not logged in: run `verdict login` or set VERDICT_API_KEY', EXIT.auth);
  return newClient({ url, apiKey }, policy, env);
}

/** What every command gets from the program: its client, the retry policy and where its exit code goes. */
export type CommandContext = {
  /** The logged-in client (exit 3 without a key), retrying as the command line says. */
  connect: () => Promise<Verdict>;
  policy: () => RetryPolicy;
  setExit: (code: number) => void;
};
