import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSamlIdp } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.ts';
import { installOutside, packWorkspaces, ROOT, run } from './support/packages.ts';
import { type RunningProcess, runAdmin, startApi } from './support/processes.ts';

// The SDK and CLI as an outside project gets them: packed tarballs installed in a folder of its own.
describe('the packed SDK and CLI in a project outside the workspace', () => {
  let dataDir: string;
  let outside: string;
  let api: RunningProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-clients-data-'));
    outside = await mkdtemp(join(tmpdir(), 'verdict-clients-outside-'));
    const [started, tarballs] = await Promise.all([
      startApi({ DATA_DIR: dataDir, SIMULATED_FIRST_TOKEN_MS: '5' }),
      packWorkspaces(['@verdict/sdk', '@verdict/cli'], join(outside, 'tarballs')),
    ]);
    api = started;
    await installOutside(outside, tarballs, ['typescript@6.0.3', '@types/node@24.10.1']);
    for (const file of ['consumer.ts', 'evidence-consumer.ts', 'audit-consumer.ts', 'sso-consumer.ts'])
      await copyFile(join(ROOT, 'tests/clients', file), join(outside, file));
    await writeFile(
      join(outside, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          noEmit: true,
          types: ['node'],
        },
        files: ['consumer.ts', 'evidence-consumer.ts', 'audit-consumer.ts', 'sso-consumer.ts'],
      }),
    );
  }, 180_000);

  /** A new account's key, on `plan`, its rate limit raised so that a script's reads never wait. */
  const keyOf = async (label: string, plan?: 'pro' | 'enterprise') => {
    const { key } = await accountOf(label, plan);
    return key;
  };
  /** A new account (its session and key), on `plan`, its rate limit raised so that a script's reads never wait. */
  const accountOf = async (label: string, plan?: 'pro' | 'enterprise') => {
    const user = await registerUser(api.baseUrl, label);
    const admin = async (args: string[]) => {
      const done = await runAdmin([...args, '--email', user.email], { DATA_DIR: dataDir });
      expect(done.code, done.stderr).toBe(0);
    };
    await admin(['set-rate-limit', '--per-minute', '1000']);
    if (plan) await admin(['set-plan', '--plan', plan]);
    const created = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: label },
    });
    return { user, key: created.data?.key as string };
  };
  afterAll(async () => {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('installs without the workspace: real files, no links to its sources', async () => {
    const { stdout } = await run('find', [
      join(outside, 'node_modules/@verdict'),
      '-maxdepth',
      '1',
      '-type',
      'l',
    ]);
    expect(stdout.trim()).toBe('');
    const { stdout: files } = await run('ls', [join(outside, 'node_modules/@verdict/sdk/dist')]);
    expect(files).toContain('index.d.ts');
  });

  it('type-checks a consumer of the REST client, the tRPC client and the stream with tsc --strict', async () => {
    const result = await run(join(outside, 'node_modules/.bin/tsc'), ['-p', outside, '--strict'], {
      cwd: outside,
    })
      .then(({ stdout }) => ({ stdout, code: 0 }))
      .catch((error: { stdout?: string; code?: number }) => ({
        stdout: error.stdout ?? '',
        code: error.code ?? -1,
      }));
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('runs the consumer against the server: sign-up, key, debate, stream to the verdict, outcome, score', async () => {
    const { stdout } = await run(process.execPath, ['consumer.ts', api.baseUrl], { cwd: outside });
    // Each line is one step's record, as consumer.ts prints it.
    type Step = { step: string; [field: string]: unknown };
    const records = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Step);
    const step = (name: string) => records.find((r) => r.step === name) ?? { step: name };
    const stream = step('stream') as Step & { events: string[]; recommendation: string };
    expect(step('key')).toMatchObject({ prefix: expect.stringMatching(/^vrd_/) });
    expect(stream.events[0]).toBe('debate.started');
    expect(stream.events).toEqual(expect.arrayContaining(['round.started', 'argument', 'verdict']));
    expect(stream.events.at(-1)).toBe('debate.completed');
    expect(stream.recommendation).toMatch(/^[A-Z_]+$/);
    expect(step('trpc')).toMatchObject({ status: 'completed' });
    expect(step('reconnect')).toEqual({ step: 'reconnect', eventsAfterEnd: 0 });
    expect(step('score')).toMatchObject({ totalResolved: 1 });
    expect(step('list')).toMatchObject({ listed: 1 });
    expect(step('error')).toMatchObject({ code: 'NOT_FOUND', status: 404, requestId: expect.any(String) });
  }, 90_000);

  it('reads the audit trail with the packed SDK: every page, its verification, the export as it streams', async () => {
    const proKey = await keyOf('audit-pro', 'pro');
    const { stdout } = await run(process.execPath, ['audit-consumer.ts', api.baseUrl, proKey], {
      cwd: outside,
    });
    const records = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { step: string });
    const step = (name: string) => records.find((r) => r.step === name);
    // One entry a page: the cursor carried the list from the revocation back to the creation.
    expect(step('list')).toMatchObject({
      actions: ['api_key.revoke', 'api_key.create', 'api_key.create'],
      actor: { kind: 'key' },
      target: true,
    });
    const verify = step('verify') as unknown as { verified: boolean; entries: number };
    expect(verify.verified).toBe(true);
    // Everything verified, and the export's own entry after it.
    expect(step('export')).toEqual({ step: 'export', seqs: verify.entries + 1, inOrder: true });
  }, 90_000);

  it("sets up a workspace's single sign-on with the packed SDK, deprovisions someone, and turns it off", async () => {
    const idp = await startSamlIdp();
    try {
      const { user: owner, key: ownerKey } = await accountOf('sso-owner', 'enterprise');
      const member = await registerUser(api.baseUrl, 'sso-member');
      const session = apiClient(api.baseUrl, { cookie: owner.cookie });
      const workspace = await session.POST('/api/workspaces', {
        body: { name: 'SSO by the SDK', slug: `sdk-sso-${Date.now().toString(36)}` },
      });
      const workspaceId = workspace.data?.id as string;
      await session.POST('/api/workspaces/{id}/members', {
        params: { path: { id: workspaceId } },
        body: { email: member.email, role: 'member' },
      });
      const metadataFile = join(outside, 'idp-metadata.xml');
      await writeFile(metadataFile, idp.metadataXml);
      const { stdout } = await run(
        process.execPath,
        ['sso-consumer.ts', api.baseUrl, ownerKey, workspaceId, metadataFile, member.email],
        { cwd: outside },
      );
      const records = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown> & { step: string });
      const step = (name: string) => records.find((r) => r.step === name);
      expect(step('configure')).toMatchObject({
        protocol: 'saml',
        acsUrl: expect.stringMatching(
          new RegExp(`^http://[^/]+/api/auth/sso/${workspace.data?.slug}/saml/acs$`),
        ),
        fingerprint: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
      });
      expect(step('get')).toEqual({
        step: 'get',
        issuer: idp.entityId,
        defaultRole: 'viewer',
        hasClientSecret: false,
      });
      expect(step('deprovision')).toEqual({ step: 'deprovision', removed: true, again: false });
      expect(step('removed')).toEqual({ step: 'removed', status: 404, code: 'NOT_FOUND' });
    } finally {
      await idp.close();
    }
  }, 90_000);

  it('reads evidence with the packed SDK: a typed plan refusal on Free (REST and tRPC), the cited corpus on Pro', async () => {
    const [freeKey, proKey] = await Promise.all([keyOf('evidence-free'), keyOf('evidence-pro', 'pro')]);
    const { stdout } = await run(process.execPath, ['evidence-consumer.ts', api.baseUrl, freeKey, proKey], {
      cwd: outside,
    });
    const records = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { step: string });
    const upgradeUrl = `${api.baseUrl}/pricing`;
    expect(records.find((r) => r.step === 'plan-required')).toEqual({
      step: 'plan-required',
      isVerdictError: true,
      status: 402,
      code: 'BYOK_REQUIRED',
      requiredPlan: 'pro',
      upgradeUrl,
      viaTrpc: {
        message: 'The evidence engine needs the Pro, BYOK Pro or Enterprise plan; this account is on Free',
        requiredPlan: 'pro',
        upgradeUrl,
      },
      verdictEvidence: 'off',
      citedKeyEvidence: 0,
      judgedKeyEvidence: expect.any(Number),
    });
    const evidence = (records.find((r) => r.step === 'evidence') ?? {}) as Record<string, unknown> & {
      citedIds?: string[];
    };
    expect(evidence).toMatchObject({
      evidence: 'on',
      passages: expect.any(Number),
      sources: ['context'],
      sameOnApi: true,
      allVerified: true,
      quotesInPassages: true,
    });
    expect(evidence.passages).toBeGreaterThan(0);
    expect(evidence.cited).toBeGreaterThan(0);
    for (const id of evidence.citedIds ?? []) expect(id).toMatch(/^E\d+$/);
    expect(evidence.citedOverTrpc).toEqual(evidence.citedIds);
    // The simulated debaters misquote on purpose: those citations are listed, marked, and never key evidence.
    expect(evidence.unverifiedCitations).toBeGreaterThan(0);
  }, 120_000);

  it('runs the packed CLI: its bin prints the version and a debate as NDJSON', async () => {
    const bin = join(outside, 'node_modules/.bin/verdict');
    expect((await run(bin, ['--version'])).stdout.trim()).toBe('1.0.0');
    const user = await registerUser(api.baseUrl, 'packed-cli');
    const created = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'packed cli' },
    });
    const { stdout } = await run(
      bin,
      ['ask', 'Does the packed command work on its own?', '--json', '--rounds', '1'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: outside,
          VERDICT_URL: api.baseUrl,
          VERDICT_API_KEY: created.data?.key ?? '',
        },
      },
    );
    const types = stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types[0]).toBe('created');
    expect(types).toContain('verdict');
    expect(types.at(-1)).toBe('result');
    // The evidence of a Free account's debate: the upgrade hint and the limits' exit code, not a stack.
    const id = (JSON.parse(stdout.split('\n')[0] ?? '{}') as { debateId: string }).debateId;
    const refused = await run(bin, ['evidence', id], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: outside,
        VERDICT_URL: api.baseUrl,
        VERDICT_API_KEY: created.data?.key ?? '',
      },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect(refused.code).toBe(4);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^verdict: BYOK_REQUIRED: The evidence engine needs the Pro, BYOK Pro or Enterprise plan/,
      ),
      `  upgrade to Pro: ${api.baseUrl}/pricing`,
    ]);
  }, 60_000);
});
