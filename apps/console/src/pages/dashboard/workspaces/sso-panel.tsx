import { type ReactNode, useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action.tsx';
import { formatDateTime, humanize } from '../../../components/format.ts';
import { data, isNotFound, rest, type Schemas } from '../../../lib/api.ts';
import { useLoad } from '../../../lib/use-load.ts';
import { SsoError } from './sso-error.tsx';
import { PROTOCOL_NAMES, SsoForm } from './sso-form.tsx';

type Connection = Schemas['SsoConnection'];

/**
 * A workspace's single sign-on, for its owner and admins (the API refuses the others): the connection and
 * what to register at the identity provider, or that there is none; the owner sets it up, changes it and
 * turns it off. The owner's plan must include it: the refusal says which plan does.
 */
export function SsoPanel({ workspace }: { workspace: Schemas['Workspace'] }) {
  const id = workspace.id;
  const isOwner = workspace.role === 'owner';
  const loaded = useLoad(
    async (signal) => {
      try {
        return await data(rest.GET('/api/workspaces/{id}/sso', { params: { path: { id } }, signal }));
      } catch (error) {
        // The workspace is there (this page read it): a 404 here says it has no connection.
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    [id],
  );
  // What this page wrote replaces what it read, without reading it again.
  const [written, setWritten] = useState<{ connection: Connection | null } | null>(null);
  const connection = written ? written.connection : loaded.data;
  const [editing, setEditing] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  return (
    <section className="panel stack" aria-labelledby="sso-heading">
      <h2 id="sso-heading">Single sign-on</h2>
      <p className="muted small">
        People of your organisation sign in through its identity provider (OpenID Connect or SAML), and join
        this workspace the first time they do.
      </p>
      {loaded.error && !written ? (
        <SsoError error={loaded.error} />
      ) : connection === undefined ? (
        <p className="loading">Loading…</p>
      ) : connection === null ? (
        <p>Not set up.</p>
      ) : (
        <ConnectionDetails connection={connection} />
      )}
      {isOwner && connection !== undefined && !(loaded.error && !written) ? (
        connection === null || editing ? (
          <SsoForm
            workspaceId={id}
            current={connection}
            onSaved={(saved) => {
              setWritten({ connection: saved });
              setEditing(false);
              setAnnouncement(connection ? 'Single sign-on changed.' : 'Single sign-on set up.');
            }}
            onCancel={connection ? () => setEditing(false) : undefined}
          />
        ) : (
          <div className="controls">
            <button type="button" className="secondary" onClick={() => setEditing(true)}>
              Change single sign-on
            </button>
            <TurnOff
              workspaceId={id}
              onTurnedOff={() => {
                setWritten({ connection: null });
                setAnnouncement('Single sign-on turned off.');
              }}
            />
          </div>
        )
      ) : null}
      {!isOwner && connection ? (
        <p className="muted small">Only the workspace’s owner can change it.</p>
      ) : null}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}

/** The connection as the API shows it (never the client secret), and this service's values for the provider. */
function ConnectionDetails({ connection: c }: { connection: Connection }) {
  const sp = c.serviceProvider;
  return (
    <>
      <dl className="details" aria-label="Single sign-on connection">
        <Term name="Protocol">{PROTOCOL_NAMES[c.protocol]}</Term>
        {c.protocol === 'oidc' ? (
          <>
            <Term name="Issuer">
              <code>{c.issuer}</code>
            </Term>
            <Term name="Client ID">
              <code>{c.clientId}</code>
            </Term>
            <Term name="Client secret">{c.hasClientSecret ? 'Set (stored encrypted)' : 'Not set'}</Term>
          </>
        ) : (
          <>
            <Term name="Provider entity ID">
              <code>{c.issuer}</code>
            </Term>
            <Term name="Provider sign-on URL">
              <code>{c.ssoUrl}</code>
            </Term>
            <Term name="Certificate fingerprint (SHA-256)">
              <code>{c.certificateFingerprint}</code>
            </Term>
          </>
        )}
        <Term name="Allowed domains">{c.allowedDomains.join(', ')}</Term>
        <Term name="Default role">{humanize(c.defaultRole)}</Term>
        <Term name="Single sign-on required">
          {c.requireSso
            ? 'Yes: members it signed in, of these domains, cannot sign in with a password'
            : 'No'}
        </Term>
        <Term name="Last changed">
          <time dateTime={c.updatedAt}>{formatDateTime(c.updatedAt)}</time>
        </Term>
      </dl>
      <h3>To register at your identity provider</h3>
      <dl className="details" aria-label="This service at your identity provider">
        <Term name="Sign-in URL">
          <code>{sp.signInUrl}</code>
        </Term>
        <Term name="Redirect URI (OIDC)">
          <code>{sp.redirectUri}</code>
        </Term>
        <Term name="Assertion consumer service URL (SAML)">
          <code>{sp.acsUrl}</code>
        </Term>
        <Term name="Entity ID (SAML)">
          <code>{sp.entityId}</code>
        </Term>
        <Term name="Metadata URL (SAML)">
          <code>{sp.metadataUrl}</code>
        </Term>
      </dl>
    </>
  );
}

function Term({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * Turning it off asks once more: sign-in through the provider stops, and the accounts it made have no
 * password to sign in with until it is set up again (the links stay, for the same provider).
 */
function TurnOff({ workspaceId, onTurnedOff }: { workspaceId: string; onTurnedOff: () => void }) {
  return (
    <ConfirmAction
      label="Turn off"
      question="Turn single sign-on off? No one can sign in through the provider any more; accounts it made have no password until it is set up again."
      confirmLabel="Yes, turn it off"
      action={async () => {
        await rest.DELETE('/api/workspaces/{id}/sso', { params: { path: { id: workspaceId } } });
        onTurnedOff();
      }}
    />
  );
}
