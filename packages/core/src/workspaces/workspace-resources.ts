import type { EntityManager } from '@mikro-orm/core';
import type { AccountTables } from '../accounts/tables.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import type { CoreResources } from '../resources.ts';
import type { WorkspaceTables } from './tables.ts';

/** What the workspace operations run on: core's database and clock, and what each plan includes. */
export type WorkspaceResources = Pick<CoreResources, 'db' | 'clock'> & { plans: PlanGates };

/** Typed queries on workspaces and the accounts that own and join them, on `em`. */
export const workspaceQuery = (em: EntityManager) => query<WorkspaceTables & AccountTables>(em);
