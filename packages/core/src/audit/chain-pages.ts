import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { AuditTables } from './tables.ts';

/** Every chain's key, in order, `size` a page: for what walks all the trails (retention, `audit-verify --all`). */
export async function* chainPages(db: Database, size: number): AsyncGenerator<string[]> {
  let after = '';
  for (;;) {
    const rows = await query<AuditTables>(db.em())
      .selectFrom('audit_chains')
      .select('chain')
      .where('chain', '>', after)
      .orderBy('chain')
      .limit(size)
      .execute();
    const chains = rows.map(({ chain }) => chain);
    if (chains.length > 0) yield chains;
    if (chains.length < size) return;
    after = chains.at(-1) ?? after;
  }
}
