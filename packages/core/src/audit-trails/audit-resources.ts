import type { EntityManager } from '@mikro-orm/core';
import type { AccountTables } from '../accounts/tables.ts';
import type { AuditTables } from '../audit/tables.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import type { CoreResources } from '../resources.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';

/** What reading the audit trails uses of core's resources (the clock: an export is recorded), and the plan gate they pass. */
export type AuditResources = Pick<CoreResources, 'db' | 'clock'> & { plans: PlanGates };

/** Typed queries on the trails, and on the accounts and workspaces whose trails they are. */
export const auditQuery = (em: EntityManager) => query<AuditTables & AccountTables & WorkspaceTables>(em);
