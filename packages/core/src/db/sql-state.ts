/** SQLSTATE codes the code reacts to (PostgreSQL's error codes appendix). */
export const SQL_STATE = {
  foreignKeyViolation: '23503',
  /** Class 22, data exception: a value the column cannot take (a NUL in text, a string too long …). */
  dataExceptionClass: '22',
  /** A statement stopped by its statement_timeout (or a cancel request). */
  queryCanceled: '57014',
  /** A transaction chosen as the victim of a deadlock: it was rolled back and may run again. */
  deadlockDetected: '40P01',
} as const;

/**
 * Whether a database error, or one it was wrapped in (the ORM's exception, a `cause` chain), carries this
 * SQLSTATE: node-postgres puts it in `code`, MikroORM's exceptions in `sqlState`.
 */
export function hasSqlState(error: unknown, state: string): boolean {
  return sqlStateOf(error, (found) => found === state) !== null;
}

/** The first SQLSTATE in the error's chain that `matches`, or null. */
export function sqlStateOf(error: unknown, matches: (state: string) => boolean): string | null {
  for (let e = error; e instanceof Error; e = e.cause) {
    const { code, sqlState } = e as { code?: unknown; sqlState?: unknown };
    for (const state of [code, sqlState]) if (typeof state === 'string' && matches(state)) return state;
  }
  return null;
}
