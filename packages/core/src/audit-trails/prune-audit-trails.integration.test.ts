import { PLANS, Plan } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOwner, chainOf } from '../audit/audit-chains.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { AuditTables } from '../audit/tables.ts';
import { query } from '../db/kysely.ts';
import type { Clock } from '../shared/clock.ts';
import { createTestCore, type TestCore, uniqueEmail } from '../testing/index.ts';
import { pruneAuditTrails } from './prune-audit-trails.ts';

const DAY = 86_400_000;
const RETENTION = Object.fromEntries(
  Plan.options.map((plan) => [plan, PLANS[plan].auditRetentionDays]),
) as Record<Plan, number>;

describe('audit retention by plan', () => {
  let test: TestCore;
  let now = Date.now();
  const clock: Clock = { now: () => now };
  beforeAll(async () => {
    test = await createTestCore();
  });
  afterAll(() => test.cleanup());

  /** Entries `daysAgo` old in `owner`'s chain, one each. */
  async function entriesAged(owner: AuditOwner, ...daysAgo: number[]) {
    const today = Date.now();
    for (const days of daysAgo) {
      now = today - days * DAY;
      await test.core.db.em().transactional((em) =>
        recordAudit(em, clock, {
          owner,
          action: 'webhook.update',
          target: { type: 'webhook', id: `${days}` },
        }),
      );
    }
    now = today;
  }
  const left = async (owner: AuditOwner) =>
    (
      await query<AuditTables>(test.core.db.em())
        .selectFrom('audit_entries')
        .select('target_id')
        .where('chain', '=', chainOf(owner))
        .orderBy('seq')
        .execute()
    ).map((row) => Number(row.target_id));

  const account = async (plan: Plan) => ({
    accountId: (await test.core.accounts.createUser({ email: uniqueEmail(plan), name: plan, plan })).id,
  });

  it('keeps each chain as long as its owner’s plan says, and a chain whose owner is gone the longest', async () => {
    const free = await account('free');
    const pro = await account('pro');
    const enterprise = await account('enterprise');
    const gone = { accountId: crypto.randomUUID() };
    for (const owner of [free, pro, enterprise, gone]) await entriesAged(owner, 400, 200, 60, 10);
    await pruneAuditTrails(test.core.db, clock, RETENTION);
    expect(await left(free)).toEqual([10]); // 30 days
    expect(await left(pro)).toEqual([60, 10]); // 90 days
    expect(await left(enterprise)).toEqual([200, 60, 10]); // 365 days
    expect(await left(gone)).toEqual([200, 60, 10]); // the longest: 365
  });

  it('lets the operator keep a plan’s entries longer', async () => {
    const free = await account('free');
    await entriesAged(free, 100, 45, 10);
    await pruneAuditTrails(test.core.db, clock, { ...RETENTION, free: 60 });
    expect(await left(free)).toEqual([45, 10]);
  });
});
