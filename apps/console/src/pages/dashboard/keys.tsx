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
          keys.reload();
        }}
      />
      {created ? <NewKeyNotice created={created} onDismiss={() => setCreated(null)} /> : null}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <h2>Your keys</h2>
      <FormError error={keys.error} />
      {keys.data === undefined ? (
        keys.error ? null : (
          <p className="loading">Loading…</p>
        )
      ) : keys.data.keys.length === 0 ? (
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
              {keys.data.keys.map((key) => (
                <KeyRow
                  key={key.id}
                  apiKey={key}
                  onRevoked={() => {
                    setAnnouncement(`Key ${key.name} revoked.`);
                    if (created?.id === key.id) setCreated(null);
                    keys.reload();
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
