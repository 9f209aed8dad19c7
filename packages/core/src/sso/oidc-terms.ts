import type { StoredConnection } from './connection-record.ts';
import type { OidcClientTerms } from './oidc-client.ts';
import type { SecretBox } from './secret-box.ts';
import { SsoRefused } from './sign-in-refusal.ts';

/** A stored OIDC connection's client, its secret opened; a secret the server can no longer open is refused. */
export function oidcTermsOf(connection: StoredConnection, secretBox: SecretBox | null): OidcClientTerms {
  let clientSecret: string | null = null;
  if (connection.client_secret_sealed) {
    if (!secretBox)
      throw new SsoRefused('not_configured', 'SSO_SECRET_KEY is not set: the client secret cannot be read');
    try {
      clientSecret = secretBox.open(connection.client_secret_sealed, connection.workspace_id);
    } catch {
      throw new SsoRefused(
        'not_configured',
        'The client secret cannot be read with this SSO_SECRET_KEY: save it again',
      );
    }
  }
  return { issuer: connection.issuer, clientId: connection.client_id ?? '', clientSecret };
}
