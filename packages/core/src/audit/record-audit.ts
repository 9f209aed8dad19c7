import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { Clock } from '../shared/clock.ts';
import { type AuditOwner, chainOf } from './audit-chains.ts';
import type { AuditChanges } from './audit-changes.ts';
import { type AuditActor, auditContext } from './audit-context.ts';
import { type AuditContent, auditHash, GENESIS_HASH } from './audit-hash.ts';
import { auditEntryRow } from './entry-rows.ts';
import type { AuditTables } from './tables.ts';

/** What an operation says about its change; who and from where come from the request (audit-context.ts). */
export type AuditRecord = {
  owner: AuditOwner;
  /** `<target type>.<verb>`, e.g. `webhook.update`. */
  action: string;
  target: { type: string; id: string | null };
  changes?: AuditChanges;
  /** Only where the operation knows better than the request: a sign-in names who signed in. */
  actor?: AuditActor;
};

const SERVICE: AuditActor = { kind: 'system', source: 'service' };

const actorColumns = (actor: AuditActor) => {
  switch (actor.kind) {
    case 'user':
      return { kind: 'user', id: actor.userId, keyId: null };
    case 'key':
      return { kind: 'key', id: actor.userId, keyId: actor.keyId };
    case 'operator':
      return { kind: 'operator', id: actor.command, keyId: null };
    case 'system':
      return { kind: 'system', id: actor.source, keyId: null };
  }
};

/**
 * Appends the entry for a change inside the change's own transaction (`em` must be in one): it commits
 * with the change or not at all. The chain's head row is locked for the rest of the transaction, so a
 * chain's entries follow one another in commit order, each hashed over the one before (audit-hash.ts).
 */
export async function recordAudit(em: EntityManager, clock: Clock, record: AuditRecord): Promise<void> {
  if (!em.isInTransaction()) throw new Error('recordAudit runs in the transaction of the change it records');
  const db = query<AuditTables>(em);
  const chain = chainOf(record.owner);
  const head = await db
    .insertInto('audit_chains')
    .values({ chain, seq: 0, hash: GENESIS_HASH })
    .onConflict((c) => c.column('chain').doUpdateSet((eb) => ({ seq: eb.ref('audit_chains.seq') })))
    .returning(['seq', 'hash'])
    .executeTakeFirstOrThrow();
  const context = auditContext();
  const content: AuditContent = {
    chain,
    seq: Number(head.seq) + 1,
    at: new Date(clock.now()).toISOString(),
    actor: actorColumns(record.actor ?? context.actor ?? SERVICE),
    action: record.action,
    target: record.target,
    origin: context.origin,
    changes: record.changes ?? {},
  };
  const hash = auditHash(head.hash, content);
  await db
    .with('appended', (w) => w.insertInto('audit_entries').values(auditEntryRow(content, head.hash, hash)))
    .updateTable('audit_chains')
    .set({ seq: content.seq, hash })
    .where('chain', '=', chain)
    .execute();
}
