import { ConfirmAction } from '../../../components/confirm-action.tsx';
import { formatDateTime } from '../../../components/format.ts';
import { client, type Schemas } from '../../../lib/api.ts';

/** One key; revoking asks once more, since a revoked key stops working at once and for good. */
export function KeyRow({ apiKey, onRevoked }: { apiKey: Schemas['ApiKey']; onRevoked: () => void }) {
  return (
    <tr>
      <td>{apiKey.name}</td>
      <td>
        <code>{apiKey.keyPrefix}…</code>
      </td>
      <td>
        <time dateTime={apiKey.createdAt}>{formatDateTime(apiKey.createdAt)}</time>
      </td>
      <td>
        <ConfirmAction
          label="Revoke"
          question={<>Revoke “{apiKey.name}”? Requests with it will fail.</>}
          confirmLabel="Yes, revoke"
          action={async () => {
            await client.keys.revoke(apiKey.id);
            onRevoked();
          }}
        />
      </td>
    </tr>
  );
}
