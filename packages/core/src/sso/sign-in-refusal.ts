import type { SsoRefusal } from '@verdict/contracts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { SsoResources } from './sso-resources.ts';

/**
 * A sign-in refused, and why (`reason`: what the person is told, from contracts' SSO_REFUSALS); `detail`
 * is what the workspace's admins read in its audit trail (the library's own words, say), never the person.
 */
export class SsoRefused extends Error {
  override name = 'SsoRefused';
  readonly reason: SsoRefusal;
  readonly detail: string | null;
  constructor(reason: SsoRefusal, detail: string | null = null) {
    super(`Single sign-on refused: ${reason}${detail ? ` (${detail})` : ''}`);
    this.reason = reason;
    this.detail = detail;
  }
}

/**
 * Records a refusal in the workspace's trail (`sso.sign_in_refused`), in a transaction of its own: a
 * refused sign-in changes nothing else. The provider's subject and email are recorded when the response
 * was genuine enough to name them.
 */
export async function recordRefusal(
  { db, clock }: Pick<SsoResources, 'db' | 'clock'>,
  workspaceId: string,
  refusal: SsoRefused,
  who: { subject?: string; email?: string } = {},
): Promise<void> {
  await db.em().transactional((em) =>
    recordAudit(em, clock, {
      owner: { workspaceId },
      action: 'sso.sign_in_refused',
      target: { type: 'sso_connection', id: workspaceId },
      changes: changesOf(null, {
        reason: refusal.reason,
        ...(refusal.detail ? { detail: refusal.detail.slice(0, 500) } : {}),
        ...who,
      }),
    }),
  );
}

/** A library's refusal in a line for the audit trail: its words and its cause's, no stack. */
export const messageOf = (error: unknown) => {
  const own = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${own}${cause}`.slice(0, 300);
};
