import type { CoreResources } from '../resources.ts';
import type { DebateAccess } from './debate-access.ts';
import type { DebateRemovalHooks } from './debate-resources.ts';

/** What moving debates between workspaces and deleting a workspace run on. */
export type WorkspaceDebateResources = Pick<CoreResources, 'db' | 'bus' | 'clock'> & {
  access: DebateAccess;
  /** Where a refusal for want of a plan points. */
  upgradeUrl: string;
  hooks: DebateRemovalHooks;
};
