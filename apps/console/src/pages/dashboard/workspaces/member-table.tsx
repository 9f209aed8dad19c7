import { useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { formatDate, humanize } from '../../../components/format.ts';
import { rest, type Schemas } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.tsx';

type Member = Schemas['WorkspaceMember'];

/** The members, owner first; admins and the owner may remove others, anyone but the owner may leave. */
export function MemberTable({
  workspace,
  members,
  onChanged,
  onLeft,
}: {
  workspace: Schemas['Workspace'];
  members: Member[];
  onChanged: () => void;
  onLeft: () => void;
}) {
  const { user } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const manages = workspace.role === 'owner' || workspace.role === 'admin';

  const remove = async (member: Member) => {
    const self = member.userId === user?.id;
    const question = self ? `Leave ${workspace.name}?` : `Remove ${member.name} from ${workspace.name}?`;
    if (!window.confirm(question)) return;
    setBusy(true);
    setError(null);
    try {
      await rest.DELETE('/api/workspaces/{id}/members/{userId}', {
        params: { path: { id: workspace.id, userId: member.userId } },
      });
      if (self) onLeft();
      else onChanged();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <FormError error={error} />
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Members of {workspace.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => {
              const self = m.userId === user?.id;
              const removable = m.role !== 'owner' && (self || manages);
              return (
                <tr key={m.userId}>
                  <th scope="row">
                    {m.name}
                    {self ? ' (you)' : ''}
                  </th>
                  <td>{m.email}</td>
                  <td>{humanize(m.role)}</td>
                  <td>{formatDate(m.joinedAt)}</td>
                  <td>
                    {removable ? (
                      <button
                        type="button"
                        className="secondary"
                        disabled={busy}
                        onClick={() => void remove(m)}
                      >
                        {self ? 'Leave' : `Remove ${m.name}`}
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
