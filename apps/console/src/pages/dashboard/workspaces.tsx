import { useSearchParams } from 'wouter';
import { FormError } from '../../components/form-error.tsx';
import { data, rest } from '../../lib/api.ts';
import { useLoad } from '../../lib/use-load.ts';
import { CreateWorkspaceForm } from './workspaces/create-workspace-form.tsx';
import { WorkspaceDetail } from './workspaces/workspace-detail.tsx';
import { WorkspaceList } from './workspaces/workspace-list.tsx';

/** Your workspaces; the one opened (`?workspace=<id>`) shows its members and debates. */
export default function WorkspacesPage() {
  const [params, setParams] = useSearchParams();
  const openId = params.get('workspace');
  const list = useLoad((signal) => data(rest.GET('/api/workspaces', { signal })), []);
  const open = (id: string | null) => setParams(id ? { workspace: id } : {});

  if (openId) {
    return (
      <section className="dashboard">
        <WorkspaceDetail id={openId} onClose={() => open(null)} onChanged={list.reload} />
      </section>
    );
  }
  return (
    <section className="dashboard">
      <h1>Workspaces</h1>
      <p className="muted">
        A workspace shares debates with a team: every member reads them, and the owner’s plan pays for them.
      </p>
      <FormError error={list.error} />
      {list.data ? (
        <WorkspaceList workspaces={list.data.workspaces} onOpen={open} />
      ) : list.error ? null : (
        <p className="loading">Loading…</p>
      )}
      <CreateWorkspaceForm
        onCreated={(workspace) => {
          list.reload();
          open(workspace.id);
        }}
      />
    </section>
  );
}
