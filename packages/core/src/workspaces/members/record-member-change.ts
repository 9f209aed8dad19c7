import type { EntityManager } from '@mikro-orm/core';
import type { WorkspaceMember } from '@verdict/contracts';
import { changesOf } from '../../audit/audit-changes.ts';
import { recordAudit } from '../../audit/record-audit.ts';
import type { Clock } from '../../shared/clock.ts';

type Role = WorkspaceMember['role'];

/**
 * A member added, given another role, or removed, in the workspace's trail, as the change of their role
 * (none before an add, none after a removal). A role "changed" to the one held changes nothing: no entry.
 */
export async function recordMemberChange(
  em: EntityManager,
  clock: Clock,
  change: { workspaceId: string; userId: string; before: Role | null; after: Role | null },
): Promise<void> {
  const verb = change.before === null ? 'add' : change.after === null ? 'remove' : 'role_change';
  const changes = changesOf(
    change.before === null ? null : { role: change.before },
    change.after === null ? null : { role: change.after },
  );
  if (Object.keys(changes).length === 0) return;
  await recordAudit(em, clock, {
    owner: { workspaceId: change.workspaceId },
    action: `workspace_member.${verb}`,
    target: { type: 'workspace_member', id: change.userId },
    changes,
  });
}
