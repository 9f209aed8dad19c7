import type { EntityManager } from '@mikro-orm/core';
import type { Plan } from '@verdict/contracts';
import { PLANS, WorkspaceSlug } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';
import { findConnection, type StoredConnection } from './connection-record.ts';
import { SsoRefused } from './sign-in-refusal.ts';

export type SignInTarget = {
  workspaceId: string;
  slug: string;
  name: string;
  ownerId: string;
  ownerPlan: Plan;
  connection: StoredConnection;
};

/**
 * The workspace a sign-in names by slug, with its connection, while the owner's plan includes single
 * sign-on; refused as `not_configured` otherwise (an unknown slug alike, so slugs cannot be probed apart).
 */
export async function signInTarget(em: EntityManager, slug: string): Promise<SignInTarget> {
  // A path segment anyone can type: what is no slug is no workspace, without asking the database.
  if (!WorkspaceSlug.safeParse(slug).success) throw new SsoRefused('not_configured');
  const workspace = await query<WorkspaceTables & AccountTables>(em)
    .selectFrom('workspaces as w')
    .innerJoin('users as o', 'o.id', 'w.owner_id')
    .select(['w.id', 'w.slug', 'w.name', 'w.owner_id', 'o.plan'])
    .where('w.slug', '=', slug)
    .executeTakeFirst();
  const connection = workspace && (await findConnection(em, workspace.id));
  if (!workspace || !connection || !PLANS[workspace.plan].features.singleSignOn) {
    throw new SsoRefused('not_configured');
  }
  return {
    workspaceId: workspace.id,
    slug: workspace.slug,
    name: workspace.name,
    ownerId: workspace.owner_id,
    ownerPlan: workspace.plan,
    connection,
  };
}
