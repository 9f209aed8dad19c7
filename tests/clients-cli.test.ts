import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.ts';
import { plain, runCli } from './support/cli.ts';
import { type RunningProcess, runAdmin, startApi } from './support/processes.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

/** Findings a Pro debate's context states, a paragraph each: long enough to be cut into several passages. */
const FINDINGS = [
  'Our annual plan costs customers 20 percent less than paying monthly',
  'Churn among monthly customers doubled after the last price rise',
  'The two largest competitors raised their prices by ten percent this year',
  'Support tickets about invoices rose by a third in the second quarter',
  'The finance team needs two weeks of notice before any change to billing terms',
  'Most renewals of the annual plan happen in January',
  'Customers on the monthly plan use the product less than annual customers do',
  'The board wants a decision on pricing before the January renewals',
];
const PRICING_CONTEXT = FINDINGS.map(
  (finding, i) =>
    `${finding}. Finding ${i + 1} of the pricing review was checked twice against the billing records, ` +
    'and the review team found no sign that it was an effect of one unusual month or one large customer. ' +
    'It is stated here as the review states it, for the agents to weigh.',
).join('\n\n');

/** The lines of a section printed as a heading followed by indented lines, up to the next blank line. */
const section = (stdout: string, heading: string) => {
  const lines = plain(stdout).split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return null;
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
};

/** Lines of `key: value` output, every one of them labelled. */
const labelled = (stdout: string) => {
  const lines = stdout.trim().split('\n');
  for (const line of lines) expect(line).toMatch(/^[A-Za-z0-9 -]+: \S/);
  return lines;
};

/**
 * Rate limits count in windows aligned to the minute: a test that spends a budget and then runs into it
 * starts no later than `marginMs` before a window ends, so the window cannot turn in between.
 */
async function awayFromMinuteEnd(marginMs: number) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 250));
}

// The `verdict` command as a user runs it, against `npm start`'s embedded default.
describe('the verdict CLI', () => {
  let dataDir: string;
  let home: string;
  let api: RunningProcess;
  let key: string;
  /** The environment of a logged-in user: the config dir holds the key. */
  let env: Record<string, string>;

  /**
   * A new user's key. The free plan allows 10 requests a minute, fewer than a test's commands make: the
   * operator raises the account's limit (`npm run admin -- set-rate-limit`) unless the key is to hit it.
   */
  const newKey = async (label: string, keyRateLimit?: number, plan?: 'pro') => {
    const user = await registerUser(api.baseUrl, label);
    if (keyRateLimit === undefined) {
      const raised = await runAdmin(['set-rate-limit', '--email', user.email, '--per-minute', '1000'], {
        DATA_DIR: dataDir,
      });
      expect(raised.code, raised.stderr).toBe(0);
    }
    if (plan) {
      const planned = await runAdmin(['set-plan', '--email', user.email, '--plan', plan], {
        DATA_DIR: dataDir,
      });
      expect(planned.code, planned.stderr).toBe(0);
    }
    const created = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: label, ...(keyRateLimit ? { config: { rateLimit: keyRateLimit } } : {}) },
    });
    return created.data?.key as string;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-cli-data-'));
    home = await mkdtemp(join(tmpdir(), 'verdict-cli-home-'));
    api = await startApi({ DATA_DIR: dataDir, SIMULATED_FIRST_TOKEN_MS: '5' });
    key = await newKey('cli');
    env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  });
  afterAll(async () => {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('logs in: the key goes to the config dir readable by its owner only, and later commands use it', async () => {
    const login = await runCli(['login', '--url', api.baseUrl, '--key', key], env);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('Logged in as');
    const file = join(home, 'config/verdict/config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: api.baseUrl, apiKey: key });
    const keys = await runCli(['keys', 'list'], env);
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.stdout).toContain('cli');
  });

  it('shows a debate live on a terminal: rounds, agents as they speak, a progress bar, the verdict and cost', async () => {
    const run = await runCli(['ask', 'Should the team adopt the command-line tool?', '--rounds', '2'], env, {
      tty: true,
    });
    expect(run.code, run.stdout).toBe(0);
    const screen = plain(run.stdout);
    expect(screen).toMatch(/panel: \w+/);
    expect(screen).toContain('Round 1/2');
    expect(screen).toContain('Round 2/2');
    const panel = /panel: (.+)/.exec(screen)?.[1]?.trim().split(', ') ?? [];
    expect(panel.length).toBeGreaterThanOrEqual(2);
    for (const agent of panel) expect(screen).toContain(`${agent} (round 1)`);
    expect(screen).toMatch(/█+\s+round 2\/2/); // the progress bar, full at the end
    expect(screen).toMatch(/convergence after round 1: \d+%/);
    expect(screen).toMatch(/Verdict: [A-Z_]+, confidence \d+%/);
    expect(screen).toMatch(/Cost: \d+ credits/);
    expect(run.stdout).toContain('\u001b['); // colours and redraws: it is a terminal
  }, 60_000);

  it('prints NDJSON events with --json, one parseable line each from creation to the result', async () => {
    const contextFile = join(home, 'context.md');
    await writeFile(contextFile, 'Scripts parse one JSON record per line.');
    const run = await runCli(
      [
        'ask',
        'Should scripts read the NDJSON output?',
        '--rounds',
        '1',
        '--json',
        '--context-file',
        contextFile,
      ],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('\u001b[');
    const records = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; debate?: { status: string } });
    const types = records.map((r) => r.type);
    expect(types[0]).toBe('created');
    expect(types[1]).toBe('debate.started');
    expect(types).toContain('argument');
    expect(types).toContain('verdict');
    expect(types.at(-2)).toBe('debate.completed');
    expect(types.at(-1)).toBe('result');
    expect(records.at(-1)?.debate?.status).toBe('completed');
  }, 60_000);

  it('writes plain lines and tab-separated tables when stdout is not a terminal', async () => {
    const list = await runCli(['list'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).not.toContain('\u001b[');
    const rows = list.stdout.trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.split('\t')[1]).toBe('completed');
    const tty = await runCli(['list'], env, { tty: true });
    expect(plain(tty.stdout)).toMatch(/┌.*┐/); // a drawn table on a terminal
  });

  it('watches, gets, shares, records an outcome, scores, reports usage and manages keys', async () => {
    const id = (await runCli(['list'], env)).stdout.trim().split('\n')[0]?.split('\t')[0] as string;
    const watch = await runCli(['watch', id], env);
    expect(watch.code, watch.stderr).toBe(0);
    expect(watch.stdout).toMatch(/verdict: [A-Z_]+ \(confidence \d+%\)/);
    const get = await runCli(['get', id, '--json'], env);
    expect(JSON.parse(get.stdout)).toMatchObject({ type: 'result', debate: { id, status: 'completed' } });
    const share = await runCli(['share', id], env);
    expect(share.stdout.trim()).toMatch(/^https?:\/\/\S+\/share\/\S+$/);
    const outcome = await runCli(['outcome', id, 'incorrect'], env);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain('recorded wrong');
    const score = await runCli(['score', '--json'], env);
    expect(JSON.parse(score.stdout)).toMatchObject({ totalTracked: expect.any(Number) });
    const usage = await runCli(['usage', '--json'], env);
    expect(JSON.parse(usage.stdout).totalRequests).toBeGreaterThan(0);
    const created = await runCli(['keys', 'create', 'second', '--json'], env);
    const second = JSON.parse(created.stdout) as { id: string; key: string };
    expect(second.key).toMatch(/^vrd_/);
    expect((await runCli(['keys', 'revoke', second.id], env)).code).toBe(0);
    const afterRevoke = await runCli(['list'], { ...env, VERDICT_API_KEY: second.key });
    expect(afterRevoke.code).toBe(3);
  }, 60_000);

  it('prints the score with each figure named: "no resolved outcomes yet" at first, 1 - Brier after a wrong verdict', async () => {
    const scorer = { ...env, VERDICT_API_KEY: await newKey('score') };
    const asked = await runCli(
      ['ask', 'Should the score name its figures?', '--rounds', '1', '--json'],
      scorer,
    );
    expect(asked.code, asked.stderr).toBe(0);
    const id = (JSON.parse(asked.stdout.split('\n')[0] ?? '{}') as { debateId: string }).debateId;

    const before = await runCli(['score'], scorer);
    expect(before.code, before.stderr).toBe(0);
    // totalTracked follows the debate's outcome record asynchronously, as the score does.
    expect(labelled(before.stdout)).toEqual([
      expect.stringMatching(/^resolved: 0 of [01] tracked$/),
      'Brier score: no resolved outcomes yet',
      '1 - Brier: no resolved outcomes yet',
      'correct streak: 0',
    ]);

    expect((await runCli(['outcome', id, 'wrong'], scorer)).stdout).toContain('recorded wrong');
    // The score is recalculated asynchronously, within seconds.
    let api = { totalResolved: 0, brierScore: 0, accuracyPercentage: 0 };
    for (let i = 0; i < 50 && api.totalResolved === 0; i++) {
      api = JSON.parse((await runCli(['score', '--json'], scorer)).stdout);
      if (api.totalResolved === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(api.totalResolved).toBe(1);
    const after = await runCli(['score'], scorer);
    const lines = labelled(after.stdout);
    expect(lines).toContain(`Brier score: ${api.brierScore.toFixed(3)} (0 best, 1 worst)`);
    expect(lines).toContain(
      `1 - Brier: ${api.accuracyPercentage.toFixed(1)}% (not the share of verdicts that came true)`,
    );
    expect(lines).toContain('resolved: 1 of 1 tracked');
    expect(after.stdout).not.toMatch(/accuracy/i);
    const tty = plain((await runCli(['score'], scorer, { tty: true })).stdout);
    expect(tty).toMatch(/Brier score:\s+\d\.\d{3} \(0 best, 1 worst\)/);
  }, 60_000);

  it('records outcomes in the API’s words, takes the old ones too, and lists the API’s in its help', async () => {
    const id = (await runCli(['list'], env)).stdout.trim().split('\n')[0]?.split('\t')[0] as string;
    const help = await runCli(['outcome', '--help'], env);
    expect(help.stdout).toContain('correct, partially_correct, wrong, too_early');
    const outcome = () =>
      apiClient(api.baseUrl, { key }).GET('/api/debates/{id}/outcome', { params: { path: { id } } });
    for (const [word, status] of [
      ['incorrect', 'wrong'],
      ['partially_correct', 'partially_correct'],
      ['wrong', 'wrong'],
      ['partial', 'partially_correct'],
    ]) {
      const run = await runCli(['outcome', id, word as string], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(`recorded ${status} for ${id}`);
      expect((await outcome()).data?.outcomeStatus).toBe(status);
    }
  });

  it('waits out a rate limit and goes on: a countdown in place on a terminal, one line on stderr otherwise', async () => {
    const user = await registerUser(api.baseUrl, 'waits');
    const session = apiClient(api.baseUrl, { cookie: user.cookie });
    const created = await session.POST('/api/keys', { body: { name: 'waits', config: { rateLimit: 2 } } });
    const waiting = { ...env, VERDICT_API_KEY: created.data?.key ?? '' };
    // The debate is the session's (a budget apart from the key's), so the key's two requests are left.
    const debate = await session.POST('/api/debates', {
      body: { question: 'Should the command line wait for the limit?', maxRounds: 1 },
    });
    const id = debate.data?.debateId as string;
    for (let i = 0; i < 100; i++) {
      const read = await session.GET('/api/debates/{id}', { params: { path: { id } } });
      if (read.data?.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await awayFromMinuteEnd(15_000);
    const keyed = apiClient(api.baseUrl, { key: waiting.VERDICT_API_KEY });
    for (let i = 0; i < 2; i++) expect((await keyed.GET('/api/scores/me')).response.status).toBe(200);
    expect((await keyed.GET('/api/scores/me')).response.status).toBe(429);

    const [outcome, score] = await Promise.all([
      runCli(['outcome', id, 'incorrect'], waiting),
      runCli(['score'], waiting, { tty: true }),
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout.trim()).toBe(`recorded wrong for ${id}`);
    expect(outcome.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^verdict: rate limited \(At most 2 requests per minute\); retrying in \d+ s$/),
    ]);
    expect(score.code, score.stdout).toBe(0);
    // One line counting down in place (carriage returns, no new line), then the score.
    expect(score.stdout).toMatch(/retrying in \d+ s[^\n]*\r[^\n]*retrying in \d+ s/);
    expect(plain(score.stdout)).toContain('resolved:');
  }, 150_000);

  it('prints Sources under a Pro account’s verdict, each a verified passage of its corpus, and lists the evidence', async () => {
    const pro = { ...env, VERDICT_API_KEY: await newKey('evidence-pro', undefined, 'pro') };
    const contextFile = join(home, 'pricing.md');
    await writeFile(contextFile, PRICING_CONTEXT);
    const question = 'Should we raise the price of the monthly plan by ten percent?';
    const asked = await runCli(['ask', question, '--rounds', '2', '--context-file', contextFile], pro);
    expect(asked.code, asked.stderr).toBe(0);
    const id = asked.stdout.split('\n')[0]?.trim() as string;
    const sources = section(asked.stdout, 'Sources') ?? [];
    expect(sources.length).toBeGreaterThanOrEqual(2);
    // Pairs of lines: the quoted passage and its source, then the claims that cited it.
    const printed = sources.flatMap((line, i) => {
      if (i % 2 === 1) {
        expect(line).toMatch(/^ {5,} cited by a1-r[12]-[a-z0-9-]+(, a1-r[12]-[a-z0-9-]+)*$/);
        return [];
      }
      const match = /^ {2}\[(E\d+)\] "(.+)" — Context$/.exec(line);
      expect(match, line).not.toBeNull();
      return [{ evidenceId: match?.[1] as string, quote: match?.[2] as string }];
    });

    // Each printed source is a passage of the corpus with a verified citation, and its quote is the passage's.
    const read = await runCli(['evidence', id, '--json'], pro);
    expect(read.code, read.stderr).toBe(0);
    const evidence = JSON.parse(read.stdout) as {
      evidence: string;
      passages: {
        evidenceId: string;
        source: { kind: string };
        text: string;
        start: number;
        end: number;
        citations: { quote: string | null; verified: boolean }[];
      }[];
    };
    expect(evidence.evidence).toBe('on');
    expect(evidence.passages.length).toBeGreaterThanOrEqual(2);
    expect(evidence.passages.every((p) => p.source.kind === 'context')).toBe(true);
    const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
    for (const { evidenceId, quote } of printed) {
      const passage = evidence.passages.find((p) => p.evidenceId === evidenceId);
      expect(
        passage?.citations.some((c) => c.verified),
        evidenceId,
      ).toBe(true);
      expect(flat(passage?.text ?? '')).toContain(quote.replace(/…$/, ''));
    }

    const listed = await runCli(['evidence', id], pro);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    const cited = evidence.passages.filter((p) => p.citations.length > 0).length;
    expect(lines[0]).toBe(
      `evidence on: ${evidence.passages.length} passage${evidence.passages.length === 1 ? '' : 's'} from 1 source, ${cited} cited`,
    );
    for (const p of evidence.passages)
      expect(lines).toContain(`[${p.evidenceId}] Context, characters ${p.start}–${p.end}`);
    expect(
      lines.filter((line) => /^ {2}cited by a1-r\d-[a-z0-9-]+(: ".+")? \((un)?verified\)$/.test(line)),
    ).toHaveLength(evidence.passages.reduce((n, p) => n + p.citations.length, 0));
    // `get` prints the same Sources under the finished verdict.
    expect(section((await runCli(['get', id], pro)).stdout, 'Sources')).toEqual(sources);
  }, 90_000);

  it('refuses a free account’s evidence with the plan to choose and where: exit 4, no stack, no Sources', async () => {
    const id = (await runCli(['list'], env)).stdout.trim().split('\n')[0]?.split('\t')[0] as string;
    for (const args of [
      ['evidence', id],
      ['evidence', id, '--json'],
    ]) {
      const refused = await runCli(args, env);
      expect(refused.code, refused.stderr).toBe(4);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^verdict: BYOK_REQUIRED: The evidence engine needs the Pro, BYOK Pro or Enterprise plan; this account is on Free \(request [0-9a-f-]{36}\)$/,
        ),
        `  upgrade to Pro: ${api.baseUrl}/pricing`,
      ]);
    }
    // The free account's debates ran without the evidence engine: the verdict shows no Sources.
    const shown = await runCli(['get', id], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/Verdict: [A-Z_]+/);
    expect(section(shown.stdout, 'Sources')).toBeNull();
  });

  it('exits 2 on a usage error: an unknown command, a bad option, input the API refuses', async () => {
    expect((await runCli(['frobnicate'], env)).code).toBe(2);
    expect((await runCli(['ask', 'Is the mode checked here?', '--mode', 'eternal'], env)).code).toBe(2);
    expect((await runCli(['ask', 'Is it?', '--agents', 'three'], env)).code).toBe(2);
    expect((await runCli(['ask', 'Is it converged?', '--stop-when-converged', '0.3'], env)).code).toBe(2);
    const refused = await runCli(['ask', 'short'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('VALIDATION_ERROR');
    expect((await runCli(['outcome', MISSING, 'maybe'], env)).code).toBe(2);
    const noFile = await runCli(
      ['ask', 'Is the context file read?', '--context-file', join(home, 'none.md')],
      env,
    );
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('--context-file');
  });

  it('exits 3 without a key or with a refused one; VERDICT_API_KEY overrides the stored login', async () => {
    const none = await runCli(['list'], {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'nobody'),
      VERDICT_URL: api.baseUrl,
    });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('verdict login');
    const refused = await runCli(['list'], { ...env, VERDICT_API_KEY: 'vrd_not_a_real_key' });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/UNAUTHORIZED.*request [0-9a-f-]{36}/);
  });

  it('exits 1 when the debate fails: a BYOK account’s provider key that no provider accepts', async () => {
    const user = await registerUser(api.baseUrl, 'byok');
    expect(
      (await runAdmin(['set-plan', '--email', user.email, '--plan', 'byok'], { DATA_DIR: dataDir })).code,
    ).toBe(0);
    const created = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'byok' },
    });
    const run = await runCli(
      [
        'ask',
        'Does a refused provider key fail the debate?',
        '--rounds',
        '1',
        '--provider-key',
        'anthropic:sk-ant-bogus',
      ],
      { ...env, VERDICT_API_KEY: created.data?.key ?? '' },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/debate failed: PROVIDER_ERROR/);
  }, 60_000);

  it('exits 1 when the server fails the call (here: no such debate), with the request id', async () => {
    const run = await runCli(['get', MISSING], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/NOT_FOUND.*request [0-9a-f-]{36}/);
  });

  it('exits 4 at a limit without waiting with --no-retry or VERDICT_MAX_RETRIES=0, saying when to retry', async () => {
    const limitedKey = await newKey('limits', 1);
    const limited = { ...env, VERDICT_API_KEY: limitedKey, VERDICT_MAX_RETRIES: '0' };
    await awayFromMinuteEnd(15_000);
    expect((await runCli(['list'], limited)).code).toBe(0);
    const over = await runCli(['list'], limited);
    expect(over.code).toBe(4);
    expect(over.stderr).toContain('RATE_LIMITED');
    for (const args of [
      ['list', '--no-retry'],
      ['--no-retry', 'outcome', MISSING, 'wrong'],
    ]) {
      const started = Date.now();
      const refused = await runCli(args, { ...env, VERDICT_API_KEY: limitedKey });
      expect(refused.code, refused.stderr).toBe(4);
      expect(refused.stderr).toMatch(/RATE_LIMITED: .*retry in \d+ s/);
      expect(refused.stderr).not.toContain('retrying');
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });
});
