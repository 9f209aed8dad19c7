/** SQLSTATE codes the code reacts to (PostgreSQL's error codes appendix). */
export const SQL_STATE = {
  foreignKeyViolation: '23503',
  /** A statement stopped by its statement_timeout (or a cancel request). */
  queryCanceled: '57014',
} as const;

/**
 * Whether a database error, or one it was wrapped in (the ORM's exception, a `cause` chain), carries this
 * SQLSTATE: node-postgres puts it in `code`, MikroORM's exceptions in `sqlState`.
 */
export function hasSqlState(error: unknown, state: string): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    const { code, sqlState } = e as { code?: unknown; sqlState?: unknown };
    if (code === state || sqlState === state) return true;
  }
  return false;
}
