import { type FormEvent, useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { data, rest } from '../../../lib/api.ts';

type Role = 'admin' | 'member' | 'viewer';

/** Add someone who already has an account, by email. */
export function InviteForm({
  workspaceId,
  canInviteAdmins,
  onInvited,
}: {
  workspaceId: string;
  canInviteAdmins: boolean;
  onInvited: () => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const email = String(fields.get('email')).trim();
    setBusy(true);
    setError(null);
    setDone('');
    try {
      const member = await data(
        rest.POST('/api/workspaces/{id}/members', {
          params: { path: { id: workspaceId } },
          body: { email, role: String(fields.get('role')) as Role },
        }),
      );
      setDone(`${member.name} added as ${member.role}.`);
      form.reset();
      onInvited();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="invite-heading">
      <h3 id="invite-heading">Invite someone</h3>
      <div className="row">
        <label>
          Email
          <input name="email" type="email" required maxLength={254} autoComplete="off" />
        </label>
        <label>
          Role
          <select name="role" defaultValue="member">
            {canInviteAdmins ? <option value="admin">Admin</option> : null}
            <option value="member">Member</option>
            <option value="viewer">Viewer</option>
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Invite
        </button>
      </div>
      <p className="hint muted">They need a Verdict account already.</p>
      <FormError error={error} />
      <p role="status">{done}</p>
    </form>
  );
}
