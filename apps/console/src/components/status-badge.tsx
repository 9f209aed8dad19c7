import type { Schemas } from '../lib/api.ts';

/** A debate's status as a coloured badge; the text carries the meaning, the colour only repeats it. */
export function StatusBadge({ status }: { status: Schemas['Debate']['status'] }) {
  return <span className={`badge ${status}`}>{status}</span>;
}
