import { messageOf } from '../lib/api.ts';

/** A failed action's message, announced to screen readers as it appears. */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {messageOf(error)}
    </p>
  );
}
