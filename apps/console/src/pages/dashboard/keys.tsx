import { useState } from 'react';
import { FormError } from '../../components/form-error.tsx';
import { data, rest, type Schemas } from '../../lib/api.ts';
import { useLoad } from '../../lib/use-load.ts';
import { CreateKeyForm } from './keys/create-key-form.tsx';
import { KeyRow } from './keys/key-row.tsx';
import { NewKeyNotice } from './keys/new-key-notice.tsx';

/** API keys for the /v1 API, the SDK and the CLI: list, create (shown once), revoke. */
export default function KeysPage() {
  const keys = useLoad((signal) => data(rest.GET('/api/keys', { signal })), []);
  const [created, setCreated] = useState<Schemas['CreatedApiKey'] | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // Changes made here are applied to the list as shown, not read again (a free account has 10 requests
  // a minute).
  const [added, setAdded] = useState<Schemas['ApiKey'][]>([]);
  const [revoked, setRevoked] = useState<ReadonlySet<string>>(new Set());
  const shown =
    keys.data &&
    [...added.filter((a) => !keys.data?.keys.some((k) => k.id === a.id)), ...keys.data.keys].filter(
      (k) => !revoked.has(k.id),
    );

  return (
    <section className="dashboard">
      <h1>API keys</h1>
      <p className="muted">
        A key authenticates the API, the SDK and the CLI as you. Keep it secret; revoke any key you no longer
        use.
      </p>
      <CreateKeyForm
        onCreated={(key) => {
          setCreated(key);
          const { key: _secret, ...listed } = key;
          setAdded((list) => [listed, ...list]);
        }}
      />
      {created ? <NewKeyNotice created={created} onDismiss={() => setCreated(null)} /> : null}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <h2>Your keys</h2>
      <FormError error={keys.error} />
      {shown === undefined ? (
        keys.error ? null : (
          <p className="loading">Loading…</p>
        )
      ) : shown.length === 0 ? (
        <p className="empty">No keys yet.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((key) => (
                <KeyRow
                  key={key.id}
                  apiKey={key}
                  onRevoked={() => {
                    setAnnouncement(`Key ${key.name} revoked.`);
                    if (created?.id === key.id) setCreated(null);
                    setRevoked((ids) => new Set(ids).add(key.id));
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
