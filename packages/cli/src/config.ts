import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Verdict } from '@verdict/sdk';
import { CliError, EXIT } from './exit-codes.ts';

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

/** A client for commands that need a key; exits 3 when there is none. */
export async function clientFromConfig(env: NodeJS.ProcessEnv = process.env): Promise<Verdict> {
  const { url, apiKey } = await resolveCredentials(env);
  if (!apiKey) throw new CliError('Not logged in: run `verdict login` or set VERDICT_API_KEY', EXIT.auth);
  // VERDICT_MAX_RETRIES: scripts that would rather fail at once than wait out a rate limit set 0.
  const retries = env.VERDICT_MAX_RETRIES;
  const maxRetries = retries !== undefined && /^\d+$/.test(retries) ? Number(retries) : undefined;
  return new Verdict({ baseUrl: url, apiKey, ...(maxRetries !== undefined ? { maxRetries } : {}) });
}
