import type { Workspace } from '@verdict/contracts';

/** The fields of a workspace its audit entries compare: what its admins can change, and its slug. */
export const auditedFields = (workspace: Pick<Workspace, 'name' | 'slug' | 'description' | 'settings'>) => ({
  name: workspace.name,
  slug: workspace.slug,
  description: workspace.description,
  ...workspace.settings,
});
