import type { InviteMemberInput, WorkspaceMember } from '@verdict/contracts';
import { AppError } from '../../shared/app-error.ts';
import { lockWorkspace, membershipOf } from '../access.ts';
import { assertRight } from '../roles.ts';
import { addMember } from '../workspace-record.ts';
import {
  type MemberResources,
  type MemberRow,
  memberQuery,
  memberRow,
  seatsOfWorkspace,
  toMember,
} from './member-rows.ts';
import { recordMemberChange } from './record-member-change.ts';

/**
 * POST /api/workspaces/:id/members. The caller's rights first, then the owner's plan (402 BYOK_REQUIRED
 * once it no longer includes workspaces, as for new debates there), then the invitee, then a seat. The
 * workspace row is locked for the count, so parallel invites cannot fill more seats than the plan has.
 */
export const inviteMember =
  ({ db, clock, plans }: MemberResources) =>
  (userId: string, input: InviteMemberInput): Promise<WorkspaceMember> =>
    db.em().transactional(async (em) => {
      await lockWorkspace(em, input.id);
      const membership = await membershipOf(em, input.id, userId);
      assertRight(membership.role, 'invite', membership);
      if (input.role === 'admin') assertRight(membership.role, 'appointAdmins', membership);
      plans.assertIncludes(membership.ownerPlan, 'workspaces', "the workspace owner's account");
      const invitee = await memberQuery(em)
        .selectFrom('users')
        .select('id')
        .where('email', '=', input.email)
        .executeTakeFirst();
      if (!invitee) throw new AppError('NOT_FOUND', 'No account has this email');
      if (await memberRow(em, input.id, invitee.id)) {
        throw new AppError('CONFLICT', 'This person is already a member of the workspace');
      }
      const { memberCount, seats, full } = await seatsOfWorkspace(em, input.id, membership.ownerPlan);
      if (full) {
        throw new AppError(
          'SEAT_LIMIT_REACHED',
          `All ${seats} seats of the owner's ${membership.ownerPlan} plan are taken`,
          { extra: { seats, memberCount, upgradeUrl: plans.upgradeUrl } },
        );
      }
      await addMember(em, {
        workspace_id: input.id,
        user_id: invitee.id,
        role: input.role,
        joined_at: new Date(clock.now()),
      });
      await recordMemberChange(em, clock, {
        workspaceId: input.id,
        userId: invitee.id,
        before: null,
        after: input.role,
      });
      return toMember((await memberRow(em, input.id, invitee.id)) as MemberRow);
    });
