import { WorkspaceRole } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/app-error.ts';
import { assertRight, hasRight, WORKSPACE_RIGHTS, type WorkspaceRight } from './roles.ts';

/** The spec's matrix (Workspace) and the rights it implies, written out by hand: role → rights it has. */
const EXPECTED: Record<WorkspaceRole, WorkspaceRight[]> = {
  owner: Object.keys(WORKSPACE_RIGHTS) as WorkspaceRight[],
  admin: [
    'read',
    'writeDebates',
    'invite',
    'appointAdmins',
    'update',
    'manageMembers',
    'controlAnyDebate',
    'publishWhenApprovalRequired',
    'viewBilling',
    'readAudit',
    'readSso',
  ],
  member: ['read', 'writeDebates', 'invite'],
  viewer: ['read'],
};

describe('workspace rights', () => {
  for (const role of WorkspaceRole.options) {
    it(`give ${role} exactly its rights of the matrix`, () => {
      const granted = (Object.keys(WORKSPACE_RIGHTS) as WorkspaceRight[]).filter((right) =>
        hasRight(role, right, { allowMemberInvites: true }),
      );
      expect(granted.sort()).toEqual([...EXPECTED[role]].sort());
    });
  }

  it('let members invite only while the workspace allows member invites; admins and the owner always', () => {
    expect(hasRight('member', 'invite', { allowMemberInvites: false })).toBe(false);
    expect(hasRight('admin', 'invite', { allowMemberInvites: false })).toBe(true);
    expect(hasRight('owner', 'invite', { allowMemberInvites: false })).toBe(true);
    expect(hasRight('viewer', 'invite', { allowMemberInvites: true })).toBe(false);
  });

  it('refuse with 403 FORBIDDEN saying what is missing', () => {
    const refusal = (() => {
      try {
        assertRight('viewer', 'writeDebates', { allowMemberInvites: true });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('Viewers') });
  });
});
