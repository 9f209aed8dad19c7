import type { EntityManager } from '@mikro-orm/core';
import type { AssignableWorkspaceRole, Plan } from '@verdict/contracts';
import type { Clock } from '../shared/clock.ts';
import { lockWorkspace } from '../workspaces/access.ts';
import { memberRow, seatsOfWorkspace } from '../workspaces/members/member-rows.ts';
import { recordMemberChange } from '../workspaces/members/record-member-change.ts';
import { addMember } from '../workspaces/workspace-record.ts';
import { SsoRefused } from './sign-in-refusal.ts';

/**
 * Someone the provider signed in becomes a member with the connection's default role, just in time, unless
 * they are one already (their role is left as an admin set it). A seat is needed as for an invite: the
 * workspace row is locked for the count.
 */
export async function joinWorkspace(
  em: EntityManager,
  clock: Clock,
  join: { workspaceId: string; userId: string; role: AssignableWorkspaceRole; ownerPlan: Plan },
): Promise<void> {
  await lockWorkspace(em, join.workspaceId);
  if (await memberRow(em, join.workspaceId, join.userId)) return;
  const { memberCount, seats, full } = await seatsOfWorkspace(em, join.workspaceId, join.ownerPlan);
  if (full) throw new SsoRefused('no_seat', `${memberCount} of ${seats} seats taken`);
  await addMember(em, {
    workspace_id: join.workspaceId,
    user_id: join.userId,
    role: join.role,
    joined_at: new Date(clock.now()),
  });
  await recordMemberChange(em, clock, {
    workspaceId: join.workspaceId,
    userId: join.userId,
    before: null,
    after: join.role,
  });
}
