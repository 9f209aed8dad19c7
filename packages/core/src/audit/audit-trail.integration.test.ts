import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../db/kysely.ts';
import type { Clock } from '../shared/clock.ts';
import { createTestCore, type TestCore } from '../testing/index.ts';
import { chainOf } from './audit-chains.ts';
import { changesOf } from './audit-changes.ts';
import { withAuditContext } from './audit-context.ts';
import { pruneAuditChain } from './prune-audit-chain.ts';
import { type AuditRecord, recordAudit } from './record-audit.ts';
import type { AuditTables } from './tables.ts';
import { verifyAuditChain } from './verify-audit-chain.ts';

const DAY = 86_400_000;

describe.each(['postgres', 'pglite'] as const)('the audit trail (%s)', (database) => {
  let test: TestCore;
  let now = Date.now();
  const clock: Clock = { now: () => now };
  beforeAll(async () => {
    test = await createTestCore({}, { database });
  });
  afterAll(() => test.cleanup());

  const db = () => test.core.db;
  const fresh = () => ({ accountId: crypto.randomUUID() });
  const record = (owner: { accountId: string }, action: string, extra: Partial<AuditRecord> = {}) =>
    db()
      .em()
      .transactional((em) =>
        recordAudit(em, clock, { owner, action, target: { type: 'api_key', id: 'k1' }, ...extra }),
      );
  const entries = (chain: string) =>
    query<AuditTables>(db().em())
      .selectFrom('audit_entries')
      .selectAll()
      .where('chain', '=', chain)
      .orderBy('seq')
      .execute();
  const refusal = (statement: string) =>
    db()
      .execute(statement)
      .then(
        () => 'allowed',
        (err: Error) => err.message,
      );

  it('numbers and links a chain’s entries, with who, from where and what changed', async () => {
    const owner = fresh();
    const origin = { ip: '203.0.113.7', userAgent: 'curl/8', requestId: 'req-1' };
    await withAuditContext(
      { actor: { kind: 'key', userId: owner.accountId, keyId: crypto.randomUUID() }, origin },
      () =>
        record(owner, 'api_key.update', {
          changes: changesOf({ name: 'a', hash: 'x' }, { name: 'b', hash: 'y' }, ['hash']),
        }),
    );
    await record(owner, 'api_key.revoke');
    const [first, second] = await entries(chainOf(owner));
    expect(first).toMatchObject({
      seq: expect.anything(),
      actor_kind: 'key',
      actor_id: owner.accountId,
      ip: origin.ip,
    });
    expect(first?.user_agent).toBe('curl/8');
    expect(first?.request_id).toBe('req-1');
    expect(first?.changes).toEqual({ hash: { changed: true }, name: { before: 'a', after: 'b' } });
    expect(Number(second?.seq)).toBe(2);
    expect(second?.prev_hash).toBe(first?.hash);
    expect(second).toMatchObject({ actor_kind: 'system', actor_id: 'service', ip: null });
    expect(await verifyAuditChain(db().em(), chainOf(owner))).toMatchObject({
      entries: 2,
      verified: true,
      firstBroken: null,
    });
  });

  it('writes nothing when the change’s transaction fails, and refuses to record outside one', async () => {
    const owner = fresh();
    await expect(
      db()
        .em()
        .transactional(async (em) => {
          await recordAudit(em, clock, {
            owner,
            action: 'webhook.create',
            target: { type: 'webhook', id: 'w' },
          });
          throw new Error('the change failed');
        }),
    ).rejects.toThrow('the change failed');
    await expect(
      recordAudit(db().em(), clock, { owner, action: 'x.y', target: { type: 'x', id: null } }),
    ).rejects.toThrow(/transaction/);
    expect(await entries(chainOf(owner))).toEqual([]);
  });

  it('keeps one order when many transactions append to a chain at once', async () => {
    const owner = fresh();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        record(owner, `schedule.update`, { target: { type: 'schedule', id: String(i) } }),
      ),
    );
    const rows = await entries(chainOf(owner));
    expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect((await verifyAuditChain(db().em(), chainOf(owner))).verified).toBe(true);
  });

  it('refuses updates, deletes and truncation to the role the service runs as', async () => {
    const owner = fresh();
    await record(owner, 'api_key.create');
    const chain = chainOf(owner);
    expect(await refusal(`update audit_entries set action = 'x' where chain = '${chain}'`)).toMatch(
      /append-only: update refused/,
    );
    expect(await refusal(`delete from audit_entries where chain = '${chain}'`)).toMatch(
      /not covered by a retention checkpoint/,
    );
    expect(await refusal('truncate audit_entries')).toMatch(/append-only: truncate refused/);
    const [entry] = await entries(chain);
    expect(
      await refusal(
        `insert into audit_checkpoints values ('${chain}', 1, '${entry?.hash}', '${new Date(entry?.at ?? 0).toISOString()}', now(), 1)`,
      ),
    ).toMatch(/older than 30 days/);
    expect(await entries(chain)).toHaveLength(1);
  });

  it('names the first entry changed behind the trigger’s back', async () => {
    const owner = fresh();
    for (const action of ['a.one', 'a.two', 'a.three']) await record(owner, action);
    const chain = chainOf(owner);
    await db()
      .em()
      .transactional(async (em) => {
        await sql`set local session_replication_role = replica`.execute(query(em));
        await sql`update audit_entries set action = 'a.forged' where chain = ${chain} and seq = 2`.execute(
          query(em),
        );
      });
    expect(await verifyAuditChain(db().em(), chain)).toMatchObject({
      verified: false,
      firstBroken: { seq: 2, problem: expect.stringMatching(/altered/) },
    });
  });

  it('retention removes only a whole old prefix and verification goes on from its checkpoint', async () => {
    const owner = fresh();
    const chain = chainOf(owner);
    const started = now;
    now = started - 100 * DAY;
    await record(owner, 'old.one');
    await record(owner, 'old.two');
    now = started - 10 * DAY;
    await record(owner, 'recent.one');
    now = started;
    expect(await pruneAuditChain(db().em(), clock, chain, new Date(started - 40 * DAY))).toBe(2);
    expect((await entries(chain)).map((row) => row.action)).toEqual(['recent.one']);
    expect(await verifyAuditChain(db().em(), chain)).toMatchObject({
      verified: true,
      entries: 1,
      checkpoint: { seq: 2 },
    });
    // Too recent for any retention: refused by the database, whatever asks.
    expect(
      await pruneAuditChain(db().em(), clock, chain, new Date(started)).catch((err: Error) => err.message),
    ).toMatch(/older than 30 days/);
  });
});
