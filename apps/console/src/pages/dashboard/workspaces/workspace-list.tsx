import { humanize } from '../../../components/format.ts';
import type { Schemas } from '../../../lib/api.ts';

/** The caller's workspaces with their role in each; opening one is a link, so it can be bookmarked. */
export function WorkspaceList({
  workspaces,
  onOpen,
}: {
  workspaces: Schemas['Workspace'][];
  onOpen: (id: string) => void;
}) {
  if (workspaces.length === 0) return <p className="empty">You are not in any workspace yet.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Your workspaces</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Slug</th>
            <th scope="col">Your role</th>
            <th scope="col">Members</th>
          </tr>
        </thead>
        <tbody>
          {workspaces.map((w) => (
            <tr key={w.id}>
              <th scope="row">
                <a
                  href={`/workspaces?workspace=${w.id}`}
                  onClick={(event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                    event.preventDefault();
                    onOpen(w.id);
                  }}
                >
                  {w.name}
                </a>
              </th>
              <td>
                <code>{w.slug}</code>
              </td>
              <td>{humanize(w.role)}</td>
              <td className="number">
                {w.memberCount}
                {w.seats === null ? '' : ` of ${w.seats} seats`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
