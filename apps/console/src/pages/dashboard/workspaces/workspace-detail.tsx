import { useEffect, useRef } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { data, rest } from '../../../lib/api.ts';
import { useLoad } from '../../../lib/use-load.ts';
import { DebateList } from '../debates/debate-list.tsx';
import { InviteForm } from './invite-form.tsx';
import { MemberTable } from './member-table.tsx';
import { SsoPanel } from './sso-panel.tsx';

/**
 * One workspace: who is in it, inviting more (where the role allows), its single sign-on (for its owner and
 * admins), and its debates.
 */
export function WorkspaceDetail({
  id,
  onClose,
  onChanged,
}: {
  id: string;
  onClose: () => void;
  onChanged: () => void;
}) {
  const workspace = useLoad(
    (signal) => data(rest.GET('/api/workspaces/{id}', { params: { path: { id } }, signal })),
    [id],
  );
  const members = useLoad(
    (signal) => data(rest.GET('/api/workspaces/{id}/members', { params: { path: { id } }, signal })),
    [id],
  );
  const heading = useRef<HTMLHeadingElement>(null);
  const w = workspace.data;
  // Opening a workspace replaces the page's content: take keyboard focus to its heading.
  const shownId = w?.id;
  useEffect(() => {
    if (shownId) heading.current?.focus();
  }, [shownId]);

  const canInvite =
    w && (w.role === 'owner' || w.role === 'admin' || (w.role === 'member' && w.settings.allowMemberInvites));
  return (
    <>
      <p>
        <button type="button" className="link-button" onClick={onClose}>
          ← All workspaces
        </button>
      </p>
      <FormError error={workspace.error ?? members.error} />
      {w ? (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {w.name}
          </h1>
          <p className="muted">
            <code>{w.slug}</code> · your role: {w.role}
            {w.description ? <> · {w.description}</> : null}
          </p>
          <h2>Members</h2>
          {members.data ? (
            <MemberTable
              workspace={w}
              members={members.data.members}
              onChanged={() => {
                members.reload();
                workspace.reload();
                onChanged();
              }}
              onLeft={() => {
                onChanged();
                onClose();
              }}
            />
          ) : null}
          {members.data ? (
            <p className="muted small">
              {members.data.members.length}
              {members.data.seats === null
                ? ' members (unlimited seats)'
                : ` of ${members.data.seats} seats used`}
            </p>
          ) : null}
          {canInvite ? (
            <InviteForm
              workspaceId={w.id}
              canInviteAdmins={w.role !== 'member'}
              onInvited={() => {
                members.reload();
                workspace.reload();
              }}
            />
          ) : null}
          {w.role === 'owner' || w.role === 'admin' ? <SsoPanel workspace={w} /> : null}
          <DebateList workspaceId={w.id} />
        </>
      ) : workspace.error ? null : (
        <p className="loading">Loading…</p>
      )}
    </>
  );
}
