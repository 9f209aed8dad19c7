import { type FormEvent, useId, useState } from 'react';
import { useFieldIssues } from '../../../components/field-issue.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { data, rest } from '../../../lib/api.ts';
import { InviteMemberInput } from '../../../lib/contracts.ts';
import { checked } from '../../../lib/form-issues.ts';

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
  const fields = useFieldIssues(error);
  const roleId = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = new FormData(form);
    const email = String(values.get('email')).trim();
    const role = String(values.get('role')) as Role;
    setBusy(true);
    setError(null);
    setDone('');
    try {
      checked(InviteMemberInput, { id: workspaceId, email, role });
      const member = await data(
        rest.POST('/api/workspaces/{id}/members', {
          params: { path: { id: workspaceId } },
          body: { email, role },
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
    <form className="panel stack" onSubmit={submit} aria-labelledby="invite-heading" noValidate>
      <h3 id="invite-heading">Invite someone</h3>
      <div className="row">
        <div className="field">
          <label>
            Email
            <input {...fields.control('email')} type="email" required maxLength={254} autoComplete="off" />
          </label>
          {fields.issue('email')}
        </div>
        <div className="field">
          <label htmlFor={roleId}>Role</label>
          <select {...fields.control('role')} id={roleId} defaultValue="member">
            {canInviteAdmins ? <option value="admin">Admin</option> : null}
            <option value="member">Member</option>
            <option value="viewer">Viewer</option>
          </select>
          {fields.issue('role')}
        </div>
        <button type="submit" disabled={busy}>
          Invite
        </button>
      </div>
      <p className="hint muted">They need a Verdict account already.</p>
      <FormError error={error} fields={['email', 'role']} />
      <p role="status">{done}</p>
    </form>
  );
}
