import { type FormEvent, useState } from 'react';
import type { Schemas } from '../../../lib/api.ts';
import type { AuditQuery } from './audit-query.ts';

/** A `datetime-local` value (the reader's time) as the API's ISO time, and back. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : '');
const toLocal = (iso: string | undefined) => {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/**
 * Which trail (the account's own, or a workspace the reader owns or administers) and which of its entries:
 * action (exact, or `webhook.` for every webhook action), target, who, and a time range.
 */
export function AuditFilters({
  query,
  workspaces,
  onApply,
}: {
  query: AuditQuery;
  workspaces: Schemas['Workspace'][];
  onApply: (query: AuditQuery) => void;
}) {
  const [draft, setDraft] = useState(query);
  const set = (field: keyof AuditQuery) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [field]: e.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const administered = workspaces.filter((w) => w.role === 'owner' || w.role === 'admin');

  return (
    <form className="panel stack" onSubmit={submit} aria-label="Audit filters">
      <div className="row">
        <label className="field">
          Trail
          <select value={draft.workspaceId ?? ''} onChange={set('workspaceId')}>
            <option value="">My account</option>
            {administered.map((w) => (
              <option key={w.id} value={w.id}>
                Workspace: {w.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Action
          <input
            value={draft.action ?? ''}
            onChange={set('action')}
            placeholder="e.g. api_key.revoke or webhook."
          />
        </label>
        <label className="field">
          Target type
          <input value={draft.targetType ?? ''} onChange={set('targetType')} placeholder="e.g. webhook" />
        </label>
        <label className="field">
          Made by (user id)
          <input value={draft.actor ?? ''} onChange={set('actor')} />
        </label>
      </div>
      <div className="row">
        <label className="field">
          From
          <input
            type="datetime-local"
            value={toLocal(draft.from)}
            onChange={(e) => setDraft((d) => ({ ...d, from: toIso(e.target.value) }))}
          />
        </label>
        <label className="field">
          To
          <input
            type="datetime-local"
            value={toLocal(draft.to)}
            onChange={(e) => setDraft((d) => ({ ...d, to: toIso(e.target.value) }))}
          />
        </label>
        <button type="submit">Show</button>
      </div>
    </form>
  );
}
