import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataDirLock, LockHolder } from '@verdict/core';
import { auditTrailOf, createTestCore, type TestCore, uniqueEmail } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runThroughServer } from './channel-client.ts';
import { serveAdminChannel } from './channel-server.ts';

const silent = { info: () => {}, warn: () => {} };

describe("operator commands through the server's admin channel", () => {
  let test: TestCore;
  let dir: string;
  let channel: Awaited<ReturnType<typeof serveAdminChannel>>;
  // The channel needs only where to announce itself and whose it is; the lock itself is the server's business.
  const holder = { id: `channel-audit-${process.pid}`, pid: process.pid, role: 'server' } as LockHolder;

  beforeAll(async () => {
    test = await createTestCore();
    dir = await mkdtemp(join(tmpdir(), 'verdict-operator-audit-'));
    const lock: DataDirLock = { dir, holder, release: async () => {} };
    channel = await serveAdminChannel(test.core, lock, silent);
  }, 60_000);
  afterAll(async () => {
    await channel?.close();
    await test?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const admin = (...argv: string[]) => runThroughServer(dir, holder, argv, () => {});

  it('records each command’s change as the operator’s, named by the command, from no request', async () => {
    const email = uniqueEmail('operated');
    await admin('create-user', '--email', email, '--name', 'Operated');
    const user = await test.core.accounts.findUserByEmail(email);
    if (!user) throw new Error('create-user made no account');
    await admin('set-plan', '--email', email, '--plan', 'pro');
    await admin('grant-credits', '--email', email, '--amount', '25');
    await admin('set-rate-limit', '--email', email, '--per-minute', '900');
    await expect(admin('set-plan', '--email', uniqueEmail('nobody'), '--plan', 'pro')).rejects.toThrow(
      /No user/,
    );
    await expect(admin('grant-credits', '--email', email, '--amount', '0')).rejects.toThrow(/positive/);
    const entries = await auditTrailOf(test.core.db, { accountId: user.id });
    expect(entries.map((entry) => [entry.action, entry.actor_kind, entry.actor_id])).toEqual([
      ['account.create', 'operator', 'create-user'],
      ['account.plan_change', 'operator', 'set-plan'],
      ['account.credit_grant', 'operator', 'grant-credits'],
      ['account.rate_limit_change', 'operator', 'set-rate-limit'],
    ]);
    expect(entries.every((entry) => entry.ip === null && entry.request_id === null)).toBe(true);
    expect(entries[2]?.changes).toMatchObject({ creditBalance: { before: 10, after: 35 } });
  });
});
