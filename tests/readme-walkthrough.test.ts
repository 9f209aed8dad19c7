import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, outputOf } from './support/cli.ts';
import { packWorkspaces, ROOT } from './support/packages.ts';
import { type RunningProcess, startApi } from './support/processes.ts';
import { type CodeBlock, codeBlocksUnder } from './support/readme.ts';

/** The address the README writes; the test's server listens on a port of its own. */
const README_ADDRESS = 'http://localhost:3000';

/** The shell variables the README's blocks hand on to the next block, as one shell session would. */
const CARRIED = ['B', 'KEY', 'ID'];

// A newcomer's first hour, as the README tells it: the code blocks of "Try it", "Clients", "SDK" and "CLI",
// read from README.md and run in order against the embedded default, so the README cannot drift from what
// works. Only the address changes (the server here has a port of its own); the tarballs `npm pack` makes are
// made into the project's folder, which is what the README has the reader do by hand.
describe('the README walk-through, run as written', () => {
  let dataDir: string;
  let home: string;
  let project: string;
  let api: RunningProcess;
  const readme = {
    tryIt: [] as CodeBlock[],
    clients: [] as CodeBlock[],
    sdk: [] as CodeBlock[],
    cli: [] as CodeBlock[],
  };

  /**
   * Runs one block in bash (errexit, nounset, pipefail) in `cwd`, with the variables earlier blocks set, and
   * keeps the ones it sets for the next block.
   */
  const shell = async (block: CodeBlock, cwd: string, env: Record<string, string> = {}): Promise<CliRun> => {
    const state = join(home, 'shell-state');
    const script = [
      'set -euo pipefail',
      `[ -f ${state} ] && source ${state}`,
      block.code.replaceAll(README_ADDRESS, api.baseUrl),
      `declare -p ${CARRIED.join(' ')} > ${state} 2>/dev/null || true`,
    ].join('\n');
    const child = spawn('bash', ['-c', script], {
      cwd,
      // The reader's own environment (npm's cache and certificates among it), with the CLI's login kept in
      // a folder of the test's and `npm run admin` pointed at the test server's data.
      env: {
        ...process.env,
        XDG_CONFIG_HOME: join(home, 'config'),
        DATA_DIR: dataDir,
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return outputOf(child);
  };

  beforeAll(async () => {
    const text = await readFile(join(ROOT, 'README.md'), 'utf8');
    readme.tryIt = codeBlocksUnder(text, '## Try it');
    readme.clients = codeBlocksUnder(text, '## Clients');
    readme.sdk = codeBlocksUnder(text, '### SDK');
    readme.cli = codeBlocksUnder(text, '### CLI');
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-readme-data-'));
    home = await mkdtemp(join(tmpdir(), 'verdict-readme-home-'));
    project = join(home, 'project');
    await mkdir(project);
    const [started] = await Promise.all([
      startApi({ DATA_DIR: dataDir, SIMULATED_FIRST_TOKEN_MS: '5' }),
      packWorkspaces(['@verdict/sdk', '@verdict/cli'], project),
    ]);
    api = started;
  }, 180_000);
  afterAll(async () => {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('"Try it": signs up, makes a key, starts a debate, streams it to the end and reads its verdict', async () => {
    expect(readme.tryIt.map((block) => block.lang)).toEqual(['sh']);
    const run = await shell(readme.tryIt[0] as CodeBlock, home);
    expect(run.code, run.stderr).toBe(0);
    // The stream, to its end, then the read: the last line is the finished debate with its verdict.
    expect(run.stdout).toContain('event: debate.started');
    expect(run.stdout).toContain('event: debate.completed');
    const read = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as {
      debate: { status: string };
      verdict: { recommendation: string; confidence: number };
    };
    expect(read.debate.status).toBe('completed');
    expect(read.verdict.recommendation).toMatch(/^[A-Z_]+$/);
    expect(Number.isInteger(read.verdict.confidence)).toBe(true);
  }, 60_000);

  it('"Clients": packs the SDK and CLI, and installs them in a project folder of its own', async () => {
    const [pack, install] = readme.clients;
    // What the README has the reader run in this repository is what made the tarballs in the project here.
    expect(pack?.code.trim()).toMatch(/^npm pack --workspace @verdict\/sdk --workspace @verdict\/cli\b/);
    const run = await shell(install as CodeBlock, project);
    expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
      type: string;
      dependencies: Record<string, string>;
    };
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@verdict/cli', '@verdict/sdk']);
  }, 180_000);

  it('"SDK": the example type-checks and prints round 1 arguments, round 2 rebuttals and the verdict', async () => {
    const [example, commands] = readme.sdk;
    expect([example?.lang, commands?.lang]).toEqual(['ts', 'sh']);
    await writeFile(
      join(project, 'example.ts'),
      (example as CodeBlock).code.replaceAll(README_ADDRESS, api.baseUrl),
    );
    const run = await shell(commands as CodeBlock, project);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.some((line) => /^round 1, [\w ]+: \[simulated\]/.test(line))).toBe(true);
    expect(lines.some((line) => /^round 2, [\w ]+ to [\w ]+: \[simulated\]/.test(line))).toBe(true);
    expect(
      lines.some((line) =>
        /^(PROCEED|RECONSIDER|REJECT|DEFER|MORE_INFO_NEEDED|SPLIT_DECISION) at \d+%: /.test(line),
      ),
    ).toBe(true);
    expect(lines).toContain('Should we ship on Friday?');
    expect(lines.at(-1)).toBe('me@example.com');
  }, 120_000);

  it('"CLI": raises the limit, logs in, asks, follows, records an outcome in the API\'s words and scores', async () => {
    const [raise, walk] = readme.cli;
    const raised = await shell(raise as CodeBlock, ROOT);
    expect(raised.code, raised.stderr).toBe(0);
    const run = await shell(walk as CodeBlock, project, {
      PATH: `${join(project, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('Logged in as me@example.com');
    expect(run.stdout).toMatch(/"type":"verdict"/);
    expect(run.stdout).toMatch(/recorded wrong for [0-9a-f-]{36}/);
    expect(run.stdout).toMatch(/^resolved: /m);
    // Nothing was refused on the way: the limit was raised as the README says.
    expect(run.stderr).not.toMatch(/rate limited/i);
  }, 180_000);
});
