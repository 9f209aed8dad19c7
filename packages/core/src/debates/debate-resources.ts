import type { EntityManager } from '@mikro-orm/core';
import type { CoreResources } from '../resources.ts';
import type { DebateAccess } from './debate-access.ts';

/** What the lists of debates and a soft delete run on. */
export type DebateReadResources = Pick<CoreResources, 'db' | 'reads' | 'clock'> & { access: DebateAccess };

/**
 * What else a permanent delete changes, in its transaction (wired by the composition): `beforeRemoval` with
 * the debates' rows locked FOR UPDATE and not yet deleted (the collections that hold them), `afterRemoval`
 * once they are gone (the owner's score).
 */
export type DebateRemovalHooks = {
  beforeRemoval?: (em: EntityManager, debateIds: string[]) => Promise<void>;
  afterRemoval?: (em: EntityManager, ownerId: string) => Promise<void>;
};

/** What the owner's commands, the permanent delete and the inspection of a debate run on. */
export type DebateControlResources = Pick<CoreResources, 'db' | 'bus' | 'clock'> & {
  access: DebateAccess;
  /** None by default. */
  hooks?: DebateRemovalHooks;
};

/** What one debate's reports (its analytics, its cost breakdown) run on. */
export type DebateReportResources = Pick<CoreResources, 'db' | 'reads'> & { access: DebateAccess };
