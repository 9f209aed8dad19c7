import { type AuditOwner, chainOf } from '../audit/audit-chains.ts';
import type { AuditTables } from '../audit/tables.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';

/** An owner's audit entries as stored, oldest first: for tests that check what a change recorded. */
export const auditTrailOf = (db: Database, owner: AuditOwner) =>
  query<AuditTables>(db.em())
    .selectFrom('audit_entries')
    .selectAll()
    .where('chain', '=', chainOf(owner))
    .orderBy('seq')
    .execute();
