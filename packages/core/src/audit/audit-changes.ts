/** A field as the entry shows it: its value before and after, or, for a secret, only that it changed. */
export type FieldChange = { before: unknown; after: unknown } | { changed: true };

/** The fields a change touched, by name. Empty for an action that changes no field (a sign-in). */
export type AuditChanges = Record<string, FieldChange>;

type Fields = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields that differ between `before` and `after` (a creation has no before, a deletion no after),
 * each with both values; those named in `secrets` (a webhook's signing secret, a password hash) appear only
 * as changed, their values never stored. Undefined is absent: a field left out of `after` did not change.
 */
export function changesOf(
  before: Fields | null,
  after: Fields | null,
  secrets: readonly string[] = [],
): AuditChanges {
  const changes: AuditChanges = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of [...names].sort()) {
    const was = before?.[name];
    const is = after?.[name];
    if (before && after && (is === undefined || same(was, is))) continue;
    if (was === undefined && is === undefined) continue;
    changes[name] = secrets.includes(name)
      ? { changed: true }
      : { before: was === undefined ? null : was, after: is === undefined ? null : is };
  }
  return changes;
}
