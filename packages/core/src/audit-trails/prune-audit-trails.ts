import type { Plan } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import { chainOf } from '../audit/audit-chains.ts';
import { chainPages } from '../audit/chain-pages.ts';
import { pruneAuditChain } from '../audit/prune-audit-chain.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';

const DAY_MS = 86_400_000;
/** Chains looked at per query. */
const PAGE = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One retention pass over every chain: each loses the entries older than its owner's plan keeps (an
 * account's own, a workspace's owner's). A chain whose owner is gone keeps the longest retention of any
 * plan: nobody is left to say it may go sooner. Answers how many entries were removed.
 */
export async function pruneAuditTrails(
  db: Database,
  clock: Clock,
  retentionDays: Record<Plan, number>,
): Promise<number> {
  const longest = Math.max(...Object.values(retentionDays));
  let removed = 0;
  for await (const chains of chainPages(db, PAGE)) {
    const plans = await ownersPlans(db, chains);
    for (const chain of chains) {
      const plan = plans.get(chain);
      const days = plan ? retentionDays[plan] : longest;
      removed += await pruneAuditChain(db.em(), clock, chain, new Date(clock.now() - days * DAY_MS));
    }
  }
  return removed;
}

/** The plan each chain's owner is on, by chain; chains whose owner no longer exists are absent. */
async function ownersPlans(db: Database, chains: string[]): Promise<Map<string, Plan>> {
  const ids = (kind: string) =>
    chains.filter((c) => c.startsWith(`${kind}:`)).map((c) => c.slice(kind.length + 1));
  const accounts = ids('account');
  const workspaces = ids('workspace');
  const plans = new Map<string, Plan>();
  if (accounts.length > 0) {
    const rows = await query<AccountTables>(db.em())
      .selectFrom('users')
      .select(['id', 'plan'])
      .where('id', 'in', accounts)
      .execute();
    for (const row of rows) plans.set(chainOf({ accountId: row.id }), row.plan as Plan);
  }
  if (workspaces.length > 0) {
    const rows = await query<AccountTables & WorkspaceTables>(db.em())
      .selectFrom('workspaces as w')
      .innerJoin('users as u', 'u.id', 'w.owner_id')
      .select(['w.id', 'u.plan'])
      .where('w.id', 'in', workspaces)
      .execute();
    for (const row of rows) plans.set(chainOf({ workspaceId: row.id }), row.plan as Plan);
  }
  return plans;
}
