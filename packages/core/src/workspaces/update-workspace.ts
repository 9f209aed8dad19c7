import type { UpdateWorkspaceInput, Workspace } from '@verdict/contracts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { lockWorkspace, membershipOf } from './access.ts';
import { readWorkspace } from './read-workspace.ts';
import { assertRight } from './roles.ts';
import { auditedFields } from './workspace-audit.ts';
import { updateWorkspace as writeWorkspace } from './workspace-record.ts';
import type { WorkspaceResources } from './workspace-resources.ts';

/** PATCH /api/workspaces/:id: admins and the owner; only the fields (and settings) given change. */
export const updateWorkspace =
  ({ db, clock }: WorkspaceResources) =>
  (userId: string, input: UpdateWorkspaceInput): Promise<Workspace> =>
    db.em().transactional(async (em) => {
      await lockWorkspace(em, input.id);
      const membership = await membershipOf(em, input.id, userId);
      assertRight(membership.role, 'update', membership);
      const before = await readWorkspace(em, input.id, membership);
      const settings = input.settings ?? {};
      await writeWorkspace(em, input.id, {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(settings.allowMemberInvites === undefined
          ? {}
          : { allow_member_invites: settings.allowMemberInvites }),
        ...(settings.defaultDebateMode === undefined
          ? {}
          : { default_debate_mode: settings.defaultDebateMode }),
        ...(settings.requireApprovalForPublicDebates === undefined
          ? {}
          : { require_approval_for_public_debates: settings.requireApprovalForPublicDebates }),
        updated_at: new Date(clock.now()),
      });
      const after = await readWorkspace(em, input.id, membership);
      const changes = changesOf(auditedFields(before), auditedFields(after));
      // A patch that leaves every field as it was changed nothing worth an entry.
      if (Object.keys(changes).length > 0) {
        await recordAudit(em, clock, {
          owner: { workspaceId: input.id },
          action: 'workspace.update',
          target: { type: 'workspace', id: input.id },
          changes,
        });
      }
      return after;
    });
