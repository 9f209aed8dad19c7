import type { TablesOf } from '../db/kysely.ts';
import type { AuditChainSchema } from './audit-chain.entity.ts';
import type { AuditCheckpointSchema } from './audit-checkpoint.entity.ts';
import type { AuditEntrySchema } from './audit-entry.entity.ts';

/** The tables the audit trail owns, for typed queries (db/kysely.ts). */
export type AuditTables = TablesOf<
  typeof AuditEntrySchema | typeof AuditChainSchema | typeof AuditCheckpointSchema
>;
