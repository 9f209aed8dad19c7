import { formatDateTime } from '../../../components/format.ts';
import type { Schemas } from '../../../lib/api.ts';
import { actorText, changeLines } from './changes-text.ts';

/** A trail's entries: when, who, what, from where, and the fields it changed. */
export function AuditTable({ entries }: { entries: Schemas['AuditEntry'][] }) {
  if (entries.length === 0) return <p className="empty">No entries match.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Audit entries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">From</th>
            <th scope="col">Changes</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.seq}>
              <td>{entry.seq}</td>
              <td>{formatDateTime(entry.at)}</td>
              <td>{actorText(entry.actor)}</td>
              <td>
                <code>{entry.action}</code>
              </td>
              <td>
                {entry.target.type}
                {entry.target.id ? <span className="muted small"> {entry.target.id}</span> : null}
              </td>
              <td>
                {entry.origin.ip ?? '—'}
                {entry.origin.userAgent ? (
                  <span className="muted small"> {entry.origin.userAgent}</span>
                ) : null}
              </td>
              <td>
                <ul className="plain">
                  {changeLines(entry.changes).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
