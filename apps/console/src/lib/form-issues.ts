import { VerdictError } from '@verdict/sdk';

/** One thing wrong with a request, as the error envelope's `details` names it (a dotted path, a message). */
export type Issue = { path: string; message: string; code: string };

/** The issues a failed call reported: the envelope's `details`, or the contract's, checked before sending. */
export function issuesOf(error: unknown): Issue[] {
  if (!(error instanceof VerdictError) || !error.details) return [];
  return error.details.flatMap((detail) => {
    const { path, message, code } = (detail ?? {}) as Partial<Issue>;
    return typeof message === 'string'
      ? [{ path: typeof path === 'string' ? path : '', message, code: typeof code === 'string' ? code : '' }]
      : [];
  });
}

/** The form field an issue belongs to: the first segment of its path (`options.2` → `options`). */
export const fieldOf = (issue: Issue) => issue.path.split('.')[0] ?? '';

/** What `safeParse` of a zod schema answers, as far as checking a body needs. */
type Checkable = {
  safeParse(
    value: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string; code: string }[] } };
};

/**
 * The body, once the contract the server validates it with accepts it; otherwise the error the server would
 * answer (VALIDATION_ERROR with the same dotted paths and messages), so a form shows both alike — and a
 * mistake shows at its field before a request is spent on it.
 */
export function checked<B>(contract: Checkable, body: B): B {
  const parsed = contract.safeParse(body);
  if (parsed.success) return body;
  throw new VerdictError({
    status: 400,
    code: 'VALIDATION_ERROR',
    message: 'Request validation failed',
    details: parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
      code: issue.code,
    })),
  });
}
