import type { paths } from '@verdict/sdk';
import { type FormEvent, useId, useState } from 'react';
import { useFieldIssues } from '../../../components/field-issue.tsx';
import { data, rest, type Schemas } from '../../../lib/api.ts';
import { PutSsoConnectionInput } from '../../../lib/contracts.ts';
import { checked } from '../../../lib/form-issues.ts';
import { SsoError } from './sso-error.tsx';

type Connection = Schemas['SsoConnection'];
type Protocol = Connection['protocol'];
type Body = paths['/api/workspaces/{id}/sso']['put']['requestBody']['content']['application/json'];

export const PROTOCOL_NAMES: Record<Protocol, string> = {
  oidc: 'OpenID Connect (OIDC)',
  saml: 'SAML 2.0',
};

const FIELDS = [
  'protocol',
  'issuer',
  'clientId',
  'clientSecret',
  'metadataXml',
  'entityId',
  'ssoUrl',
  'certificate',
  'allowedDomains',
  'defaultRole',
  'requireSso',
] as const;

/** Domains as typed: separated by commas (or spaces), blanks dropped; the contract lowercases and checks each. */
const domainsOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/**
 * Set up or change the workspace's single sign-on (its owner). OIDC: the issuer (the API reads its
 * discovery document before saving), the client id and secret; the secret is never shown again, and left
 * empty on a change the stored one is kept. SAML: the provider's metadata, or its entity id, sign-on URL and
 * certificate; the stored certificate is never shown (only its fingerprint), and a change that gives none of
 * them keeps the stored ones.
 */
export function SsoForm({
  workspaceId,
  current,
  onSaved,
  onCancel,
}: {
  workspaceId: string;
  current: Connection | null;
  onSaved: (connection: Connection) => void;
  onCancel?: (() => void) | undefined;
}) {
  const [protocol, setProtocol] = useState<Protocol>(current?.protocol ?? 'oidc');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const fields = useFieldIssues(error);
  const ids = useId();
  const oidc = current?.protocol === 'oidc' ? current : null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    const text = (name: string) => String(values.get(name) ?? '').trim();
    /** A field left empty is left out: the contract takes a value or nothing. */
    const given = (...names: string[]) =>
      Object.fromEntries(names.map((name) => [name, text(name)]).filter(([, value]) => value !== ''));
    const terms = {
      allowedDomains: domainsOf(text('allowedDomains')),
      defaultRole: text('defaultRole') as Connection['defaultRole'],
      requireSso: values.get('requireSso') === 'on',
    };
    const body = (
      protocol === 'oidc'
        ? { protocol, issuer: text('issuer'), clientId: text('clientId'), ...given('clientSecret'), ...terms }
        : { protocol, ...given('metadataXml', 'entityId', 'ssoUrl', 'certificate'), ...terms }
    ) as Body;
    setBusy(true);
    setError(null);
    try {
      checked(PutSsoConnectionInput, { id: workspaceId, ...body });
      onSaved(
        await data(rest.PUT('/api/workspaces/{id}/sso', { params: { path: { id: workspaceId } }, body })),
      );
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <form className="stack" onSubmit={submit} aria-labelledby={`${ids}-heading`} noValidate>
      <h3 id={`${ids}-heading`}>{current ? 'Change single sign-on' : 'Set up single sign-on'}</h3>
      <div className="field">
        <label htmlFor={`${ids}-protocol`}>Protocol</label>
        <select
          {...fields.control('protocol')}
          id={`${ids}-protocol`}
          value={protocol}
          onChange={(event) => setProtocol(event.target.value as Protocol)}
        >
          {(Object.keys(PROTOCOL_NAMES) as Protocol[]).map((p) => (
            <option key={p} value={p}>
              {PROTOCOL_NAMES[p]}
            </option>
          ))}
        </select>
        {fields.issue('protocol')}
      </div>
      {protocol === 'oidc' ? (
        <>
          <div className="field">
            <label>
              Issuer
              <input
                {...fields.control('issuer', `${ids}-issuer-hint`)}
                type="url"
                required
                defaultValue={oidc?.issuer ?? ''}
                autoComplete="off"
              />
            </label>
            {fields.issue('issuer')}
            <p id={`${ids}-issuer-hint`} className="hint muted">
              The provider’s issuer URL; its discovery document is read when you save.
            </p>
          </div>
          <div className="row">
            <div className="field">
              <label>
                Client ID
                <input
                  {...fields.control('clientId')}
                  required
                  defaultValue={oidc?.clientId ?? ''}
                  autoComplete="off"
                />
              </label>
              {fields.issue('clientId')}
            </div>
            <div className="field">
              <label>
                Client secret
                <input
                  {...fields.control('clientSecret', `${ids}-secret-hint`)}
                  type="password"
                  autoComplete="new-password"
                />
              </label>
              {fields.issue('clientSecret')}
            </div>
          </div>
          <p id={`${ids}-secret-hint`} className="hint muted">
            Stored encrypted and never shown again.
            {oidc?.hasClientSecret ? ' Leave it empty to keep the one stored.' : ''}
          </p>
        </>
      ) : (
        <>
          <div className="field">
            <label>
              Provider metadata (XML)
              <textarea {...fields.control('metadataXml', `${ids}-saml-hint`)} rows={4} spellCheck={false} />
            </label>
            {fields.issue('metadataXml')}
          </div>
          <p id={`${ids}-saml-hint`} className="hint muted">
            Paste the provider’s metadata, or give its entity ID, sign-on URL and signing certificate below
            (they win over the metadata). Left empty on a change, the stored provider is kept.
          </p>
          <div className="row">
            <div className="field">
              <label>
                Provider entity ID
                <input {...fields.control('entityId')} autoComplete="off" />
              </label>
              {fields.issue('entityId')}
            </div>
            <div className="field">
              <label>
                Provider sign-on URL
                <input {...fields.control('ssoUrl')} type="url" autoComplete="off" />
              </label>
              {fields.issue('ssoUrl')}
            </div>
          </div>
          <div className="field">
            <label>
              Signing certificate (PEM)
              <textarea {...fields.control('certificate')} rows={3} spellCheck={false} />
            </label>
            {fields.issue('certificate')}
          </div>
        </>
      )}
      <div className="row">
        <div className="field">
          <label>
            Allowed domains
            <input
              {...fields.control('allowedDomains', `${ids}-domains-hint`)}
              required
              defaultValue={current?.allowedDomains.join(', ') ?? ''}
              autoComplete="off"
              spellCheck={false}
            />
          </label>
          {fields.issue('allowedDomains')}
        </div>
        <div className="field">
          <label htmlFor={`${ids}-role`}>Default role</label>
          <select
            {...fields.control('defaultRole', `${ids}-role-hint`)}
            id={`${ids}-role`}
            defaultValue={current?.defaultRole ?? 'member'}
          >
            <option value="admin">Admin</option>
            <option value="member">Member</option>
            <option value="viewer">Viewer</option>
          </select>
          {fields.issue('defaultRole')}
        </div>
      </div>
      <p id={`${ids}-domains-hint`} className="hint muted">
        Comma-separated, as in <code>example.com, example.org</code>: the provider signs in addresses of these
        domains only.
      </p>
      <p id={`${ids}-role-hint`} className="hint muted">
        The role people join the workspace with when they first sign in.
      </p>
      <div className="field">
        <label className="inline">
          <input
            {...fields.control('requireSso')}
            type="checkbox"
            defaultChecked={current?.requireSso ?? false}
          />
          Require single sign-on for members of these domains (you keep your password, and each use of it is
          recorded)
        </label>
        {fields.issue('requireSso')}
      </div>
      <SsoError error={error} fields={FIELDS} />
      <div className="controls">
        <button type="submit" disabled={busy}>
          {current ? 'Save changes' : 'Set up single sign-on'}
        </button>
        {onCancel ? (
          <button type="button" className="secondary" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
