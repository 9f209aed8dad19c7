import type { SsoConnection, SsoConnectionInput } from '@verdict/contracts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../shared/app-error.ts';
import { lockWorkspace } from '../workspaces/access.ts';
import { ssoAccess } from './connection-access.ts';
import { findConnection, type StoredConnection, saveConnection } from './connection-record.ts';
import { auditedFields, toConnectionView } from './connection-view.ts';
import type { OidcClients } from './oidc-client.ts';
import { samlProviderTerms } from './saml-provider-terms.ts';
import type { SecretBox } from './secret-box.ts';
import { messageOf } from './sign-in-refusal.ts';
import type { SsoResources } from './sso-resources.ts';

type Deps = SsoResources & { oidcClients: OidcClients; secretBox: SecretBox | null };

/**
 * PUT /api/workspaces/:id/sso: the workspace's connection created or replaced, by its owner on Enterprise.
 * An OIDC provider is read (discovery) before anything is stored, so a typo in the issuer is a 400 now
 * rather than a failed sign-in later; a SAML provider's terms come from its metadata or the fields given.
 */
export const configureConnection =
  (deps: Deps) =>
  async (userId: string, workspaceId: string, input: SsoConnectionInput): Promise<SsoConnection> => {
    const { db, clock, plans } = deps;
    const current = await db.em().transactional(async (em) => {
      await ssoAccess(em, plans, workspaceId, userId, 'configureSso');
      return findConnection(em, workspaceId);
    });
    const provider = await providerTerms(deps, workspaceId, input, current);
    return db.em().transactional(async (em) => {
      await lockWorkspace(em, workspaceId);
      const { slug } = await ssoAccess(em, plans, workspaceId, userId, 'configureSso');
      const before = (await findConnection(em, workspaceId, true)) ?? null;
      const now = new Date(clock.now());
      const row: StoredConnection = {
        workspace_id: workspaceId,
        protocol: input.protocol,
        ...provider,
        allowed_domains: [...new Set(input.allowedDomains)],
        default_role: input.defaultRole,
        require_sso: input.requireSso,
        created_at: before?.created_at ?? now.toISOString(),
        updated_at: now.toISOString(),
      };
      await saveConnection(em, { ...row, created_at: before ? before.created_at : now, updated_at: now });
      await recordAudit(em, clock, {
        owner: { workspaceId },
        action: before ? 'sso_connection.update' : 'sso_connection.create',
        target: { type: 'sso_connection', id: workspaceId },
        changes: changesOf(auditedFields(before), auditedFields(row), ['clientSecret']),
      });
      return toConnectionView(row, slug, deps.config.publicBaseUrl);
    });
  };

type ProviderColumns = Pick<
  StoredConnection,
  'issuer' | 'client_id' | 'client_secret_sealed' | 'sso_url' | 'certificate'
>;

async function providerTerms(
  deps: Deps,
  workspaceId: string,
  input: SsoConnectionInput,
  current: StoredConnection | undefined,
): Promise<ProviderColumns> {
  if (input.protocol === 'saml') {
    // An update that gives neither metadata nor a field keeps what is stored (changing domains or the role
    // should not need the certificate pasted again).
    const stored =
      current?.protocol === 'saml'
        ? {
            entityId: current.issuer,
            ssoUrl: current.sso_url ?? undefined,
            certificate: current.certificate ?? undefined,
          }
        : {};
    const terms = await samlProviderTerms(input, stored);
    return {
      issuer: terms.entityId,
      client_id: null,
      client_secret_sealed: null,
      sso_url: terms.ssoUrl,
      certificate: terms.certificate,
    };
  }
  // The contract requires both for OIDC (SsoConnectionInput's refinement).
  const issuer = input.issuer as string;
  const clientId = input.clientId as string;
  // An update that leaves the secret out keeps the one stored for the same client of the same provider.
  const kept =
    current?.protocol === 'oidc' && current.issuer === issuer && current.client_id === clientId
      ? current.client_secret_sealed
      : null;
  if (input.clientSecret !== undefined && !deps.secretBox) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'Client secrets cannot be stored: the server has no SSO_SECRET_KEY set',
    );
  }
  const secret =
    input.clientSecret ?? (kept && deps.secretBox ? deps.secretBox.open(kept, workspaceId) : null);
  try {
    await deps.oidcClients.discover({ issuer, clientId, clientSecret: secret });
  } catch (error) {
    const message = `The issuer's discovery document could not be read: ${messageOf(error)}`;
    throw new AppError('VALIDATION_ERROR', message, {
      details: [{ path: 'issuer', code: 'custom', message }],
    });
  }
  return {
    issuer,
    client_id: clientId,
    client_secret_sealed:
      input.clientSecret !== undefined && deps.secretBox
        ? deps.secretBox.seal(input.clientSecret, workspaceId)
        : kept,
    sso_url: null,
    certificate: null,
  };
}
