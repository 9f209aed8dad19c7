import { type AuditTables, query } from '@verdict/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody, registerUser } from './support/api-client.ts';
import {
  type DistributedStack,
  MODES,
  type Stack,
  startDistributedStack,
  startStack,
} from './support/stack.ts';

const AGENT = 'audit-e2e/1.0';

/** NDJSON lines as objects. */
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { seq: number; action: string; hash: string; prevHash: string });

describe.each(MODES)('the audit trail over HTTP (%s)', (mode) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(mode, 'audit');
  });
  afterAll(() => stack?.stop());

  it('records who changed what and from where; lists, filters, verifies and exports it', async () => {
    const user = await registerUser(stack.baseUrl, 'audited');
    await stack.setPlan(user.email, 'pro');
    const session = apiClient(stack.baseUrl, { cookie: user.cookie });
    const created = await session.POST('/api/keys', {
      body: { name: 'ci' },
      headers: { 'user-agent': AGENT },
    });
    const key = expectBody(created, 201);
    const requestId = created.response.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    const byKey = apiClient(stack.baseUrl, { key: key.key });
    expect(
      (await byKey.PATCH('/api/keys/{id}', { params: { path: { id: key.id } }, body: { name: 'ci-2' } }))
        .response.status,
    ).toBe(200);

    const page = expectBody(
      await session.GET('/api/audit', { params: { query: { action: 'api_key.' } } }),
      200,
    );
    expect(page.entries.map((e) => e.action)).toEqual(['api_key.update', 'api_key.create']);
    const [update, create] = page.entries;
    expect(create).toMatchObject({
      actor: { kind: 'user', id: user.userId, keyId: null },
      target: { type: 'api_key', id: key.id },
      origin: { userAgent: AGENT, requestId },
      changes: { name: { before: null, after: 'ci' } },
    });
    expect(create?.origin.ip).toMatch(/127\.0\.0\.1/);
    expect(update).toMatchObject({
      actor: { kind: 'key', id: user.userId, keyId: key.id },
      changes: { name: { before: 'ci', after: 'ci-2' } },
    });
    expect(JSON.stringify(page)).not.toContain(key.key);

    // The whole trail: sign-up, its session, the operator's plan change, the key's two changes, in chain order.
    const all = expectBody(await session.GET('/api/audit'), 200).entries;
    expect(all.map((e) => e.action).reverse()).toEqual(
      expect.arrayContaining(['account.create', 'account.plan_change', 'api_key.create', 'api_key.update']),
    );
    expect(all.find((e) => e.action === 'account.plan_change')?.actor).toMatchObject({
      kind: 'operator',
      id: 'set-plan',
    });
    expect(expectBody(await session.GET('/api/audit/verify'), 200)).toMatchObject({
      verified: true,
      entries: all.length,
      firstBroken: null,
    });

    const ndjson = await fetch(`${stack.baseUrl}/api/audit/export?format=ndjson`, {
      headers: { cookie: user.cookie },
    });
    expect(ndjson.headers.get('content-disposition')).toMatch(/^attachment/);
    const exported = lines(await ndjson.text());
    // The trail as listed, then the export's own entry: taking the trail out is recorded in it.
    expect(exported.map((e) => e.seq)).toEqual([...all.map((e) => e.seq).reverse(), all.length + 1]);
    expect(exported.at(-1)?.action).toBe('audit.export');
    for (const [i, entry] of exported.entries()) {
      if (i > 0) expect(entry.prevHash).toBe(exported[i - 1]?.hash);
    }
    const csv = await fetch(`${stack.baseUrl}/api/audit/export?format=csv&action=api_key.`, {
      headers: { cookie: user.cookie },
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = (await csv.text()).trim().split(/\r?\n/);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^chain,seq,at,/);

    // The two exports are in the trail too.
    expect(await stack.admin('audit-verify', '--email', user.email)).toMatch(
      new RegExp(`account:${user.userId}: ${all.length + 2} entries verified`),
    );
  });

  it('shows the trail only on a plan with audit logs, and only to its account', async () => {
    const free = await registerUser(stack.baseUrl, 'free-audit');
    const refused = await apiClient(stack.baseUrl, { cookie: free.cookie }).GET('/api/audit');
    expect(refused.response.status).toBe(402);
    expect(refused.error).toMatchObject({ error: { code: 'BYOK_REQUIRED' } });
    const exported = await fetch(`${stack.baseUrl}/api/audit/export`, { headers: { cookie: free.cookie } });
    expect(exported.status).toBe(402);
  });
});

describe('a trail altered behind the database’s back (distributed)', () => {
  let stack: DistributedStack;
  beforeAll(async () => {
    stack = await startDistributedStack('audit_tamper');
  });
  afterAll(() => stack?.stop());

  it('is found by the API’s check and by npm run admin -- audit-verify, which names the entry', async () => {
    const user = await registerUser(stack.baseUrl, 'tampered');
    await stack.setPlan(user.email, 'enterprise');
    const session = apiClient(stack.baseUrl, { cookie: user.cookie });
    expectBody(await session.POST('/api/keys', { body: { name: 'one' } }), 201);
    const entries = expectBody(await session.GET('/api/audit'), 200).entries;
    const victim = entries.find((e) => e.action === 'api_key.create');
    if (!victim) throw new Error('no api_key.create entry');
    await stack.db.core.db.em().transactional(async (em) => {
      await sql`set local session_replication_role = replica`.execute(query<AuditTables>(em));
      await sql`update audit_entries set ip = '198.51.100.1' where chain = ${victim.chain} and seq = ${victim.seq}`.execute(
        query<AuditTables>(em),
      );
    });
    expect(expectBody(await session.GET('/api/audit/verify'), 200)).toMatchObject({
      verified: false,
      firstBroken: { seq: victim.seq, problem: expect.stringMatching(/altered/) },
    });
    await expect(stack.admin('audit-verify', '--email', user.email)).rejects.toThrow(
      new RegExp(`broken at entry ${victim.seq}: altered`),
    );
  });
});
