import type { EntityManager } from '@mikro-orm/core';
import { PLANS } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { query } from '../db/kysely.ts';
import { AppError } from '../shared/app-error.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';
import { serviceProviderOf } from './service-provider.ts';
import type { SsoResources } from './sso-resources.ts';
import type { SsoTables } from './tables.ts';

/**
 * What a right password may open when workspaces require single sign-on (the accounts' onPasswordSignIn
 * hook, in the session's transaction). A workspace holds to it the members its provider vouches for: those
 * whose account is linked to it (they signed in through it, or it made their account) and whose email is of
 * its allowed domains, while its owner's plan includes single sign-on; such a member is refused with 403
 * FORBIDDEN naming where to sign in. Someone merely added to the workspace is not: an owner could otherwise
 * take anyone's password away by inviting them (an invite needs no consent). The owner keeps the password
 * as the way in when the provider fails (break-glass), each such sign-in recorded in the workspace's trail.
 */
export const passwordSignInPolicy =
  ({ clock, config }: Pick<SsoResources, 'clock' | 'config'>) =>
  async (em: EntityManager, userId: string): Promise<void> => {
    const rows = await query<SsoTables & WorkspaceTables & AccountTables>(em)
      .selectFrom('sso_connections as c')
      .innerJoin('workspace_members as m', 'm.workspace_id', 'c.workspace_id')
      .innerJoin('workspaces as w', 'w.id', 'c.workspace_id')
      .innerJoin('users as o', 'o.id', 'w.owner_id')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .leftJoin('sso_identities as i', (join) =>
        join
          .onRef('i.workspace_id', '=', 'c.workspace_id')
          .onRef('i.issuer', '=', 'c.issuer')
          .onRef('i.user_id', '=', 'm.user_id'),
      )
      .select(['w.id', 'w.name', 'w.slug', 'm.role', 'o.plan', 'u.email', 'c.allowed_domains', 'i.subject'])
      .where('m.user_id', '=', userId)
      .where('c.require_sso', '=', true)
      .execute();
    const requiring = rows.filter((row) => PLANS[row.plan].features.singleSignOn);
    const vouchedFor = (row: (typeof rows)[number]) =>
      row.subject !== null &&
      (row.allowed_domains as string[]).includes(row.email.slice(row.email.lastIndexOf('@') + 1));
    const refusing = requiring.find((row) => row.role !== 'owner' && vouchedFor(row));
    if (refusing) {
      const { signInUrl } = serviceProviderOf(config.publicBaseUrl, refusing.slug);
      throw new AppError(
        'FORBIDDEN',
        `The workspace "${refusing.name}" requires single sign-on: sign in through its identity provider at ${signInUrl}`,
      );
    }
    for (const owned of requiring.filter((row) => row.role === 'owner')) {
      await recordAudit(em, clock, {
        owner: { workspaceId: owned.id },
        action: 'session.break_glass',
        target: { type: 'account', id: userId },
        changes: changesOf(null, { method: 'password' }),
        actor: { kind: 'user', userId },
      });
    }
  };
