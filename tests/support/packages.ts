import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npm` as the tests' own Node runs it: npm scripts put node_modules/.bin (Node 24) first on PATH. */
async function npm(args: string[], cwd: string) {
  return run('npm', args, {
    cwd,
    env: {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** Builds and packs the workspaces (`npm pack`), answering the tarballs' paths. */
export async function packWorkspaces(workspaces: string[], into: string): Promise<string[]> {
  await mkdir(into, { recursive: true });
  const args = workspaces.flatMap((w) => ['--workspace', w]);
  await npm(['run', 'build', ...args], ROOT);
  const { stdout } = await npm(['pack', ...args, '--json', '--pack-destination', into], ROOT);
  return (JSON.parse(stdout) as { filename: string }[]).map((p) => join(into, p.filename));
}

/**
 * A fresh project outside the workspace with the tarballs and TypeScript installed from them alone (no
 * workspace links); dependencies come from the npm cache the root install filled.
 */
export async function installOutside(dir: string, tarballs: string[], extra: string[]) {
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'outside-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  await npm(['install', '--prefer-offline', '--no-package-lock', ...tarballs, ...extra], dir);
}

export { run };
