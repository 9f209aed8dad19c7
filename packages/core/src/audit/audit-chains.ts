/** Whose trail a change belongs to: a workspace's (its members' changes to it), else an account's own. */
export type AuditOwner = { workspaceId: string } | { accountId: string };

/** A chain's key as stored: `workspace:<id>` or `account:<id>`. */
export const chainOf = (owner: AuditOwner): string =>
  'workspaceId' in owner ? `workspace:${owner.workspaceId}` : `account:${owner.accountId}`;
