/** A field's change as an entry carries it: both values, or only that a secret changed. */
type FieldChange = { before?: unknown; after?: unknown; changed?: boolean };

const shown = (value: unknown): string => {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
};

/**
 * An entry's changes as lines people read: `name: draft → final`, `secret: changed`, a created field as
 * `url: set to https://…`, a removed one as `url: cleared`.
 */
export function changeLines(changes: Record<string, unknown>): string[] {
  return Object.entries(changes).map(([field, raw]) => {
    const change = (raw ?? {}) as FieldChange;
    if (change.changed === true) return `${field}: changed`;
    const before = change.before ?? null;
    const after = change.after ?? null;
    if (before === null) return `${field}: set to ${shown(after)}`;
    if (after === null) return `${field}: cleared (was ${shown(before)})`;
    return `${field}: ${shown(before)} → ${shown(after)}`;
  });
}

/** Who made a change, as a reader would say it. */
export function actorText(actor: { kind: string; id: string | null; keyId: string | null }): string {
  switch (actor.kind) {
    case 'user':
      return `User ${actor.id ?? ''}`.trim();
    case 'key':
      return `Key ${actor.keyId ?? ''} of user ${actor.id ?? ''}`.trim();
    case 'operator':
      return `Operator (${actor.id ?? 'command'})`;
    default:
      return `Service (${actor.id ?? 'system'})`;
  }
}
