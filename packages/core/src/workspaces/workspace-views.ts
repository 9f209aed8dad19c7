import { PLANS, type Plan, type Workspace, type WorkspaceRole } from '@verdict/contracts';

/** The columns a workspace's view is made of. */
export const WORKSPACE_COLUMNS = [
  'w.id',
  'w.owner_id',
  'w.name',
  'w.slug',
  'w.description',
  'w.allow_member_invites',
  'w.default_debate_mode',
  'w.require_approval_for_public_debates',
  'w.created_at',
  'w.updated_at',
] as const;

export type WorkspaceRow = {
  id: string;
  owner_id: string;
  name: string;
  slug: string;
  description: string | null;
  allow_member_invites: boolean;
  default_debate_mode: Workspace['settings']['defaultDebateMode'];
  require_approval_for_public_debates: boolean;
  created_at: string;
  updated_at: string;
};

/** Seats a workspace owned on `plan` has, the owner included; null = unlimited. */
export const seatsOf = (plan: Plan): number | null => PLANS[plan].seats;

export function toWorkspace(
  row: WorkspaceRow,
  extra: { role: WorkspaceRole; memberCount: number; ownerPlan: Plan },
): Workspace {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    ownerId: row.owner_id,
    settings: {
      allowMemberInvites: row.allow_member_invites,
      defaultDebateMode: row.default_debate_mode,
      requireApprovalForPublicDebates: row.require_approval_for_public_debates,
    },
    role: extra.role,
    memberCount: extra.memberCount,
    seats: seatsOf(extra.ownerPlan),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
