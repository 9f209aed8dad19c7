import { networkCause } from '../shared/network-cause.ts';
import { OperatorError } from '../shared/operator-error.ts';
import { sqlStateOf } from './sql-state.ts';

/**
 * DATABASE_URL as it may be printed: without the password, whether in the authority or a `password=`
 * parameter. (A URL that does not parse was refused by the configuration already.)
 */
export function printableDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  parsed.searchParams.delete('password');
  return parsed.toString();
}

/** host:port of the PostgreSQL a DATABASE_URL names (libpq's defaults: localhost, 5432). */
export function postgresAddress(url: string): string {
  const parsed = new URL(url);
  const host = decodeURIComponent(parsed.hostname) || parsed.searchParams.get('host') || 'localhost';
  return `${host}:${parsed.port || parsed.searchParams.get('port') || '5432'}`;
}

/** The database a DATABASE_URL names; without a path PostgreSQL takes the user's name, as libpq does. */
export function databaseName(url: string): string {
  const parsed = new URL(url);
  const path = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  return path || decodeURIComponent(parsed.username) || 'postgres';
}

/**
 * The one-line refusal for a PostgreSQL a process cannot start on (unreachable, no such database, login
 * refused), or null for any other failure, which stays as it is. Never carries the password.
 */
export function postgresStartupProblem(error: unknown, url: string): OperatorError | null {
  const at = postgresAddress(url);
  const shown = `DATABASE_URL=${printableDatabaseUrl(url)}`;
  const cause = networkCause(error);
  if (cause) return new OperatorError(`cannot reach PostgreSQL at ${at} (${cause}); is it running? ${shown}`);
  const state = sqlStateOf(error, (s) => s === '3D000' || s === '28P01' || s === '28000');
  if (state === '3D000') {
    return new OperatorError(
      `PostgreSQL at ${at} has no database "${databaseName(url)}"; check ${shown}, ` +
        'or create it with `npm run admin -- create-database`',
    );
  }
  if (state) {
    return new OperatorError(
      `PostgreSQL at ${at} refused the login (${messageWith(error, state)}); check ${shown}`,
    );
  }
  return null;
}

/** The message of the error in the chain that carries the SQLSTATE: the server's own words. */
function messageWith(error: unknown, state: string): string {
  for (let e = error; e instanceof Error; e = e.cause) {
    const { code, sqlState } = e as { code?: unknown; sqlState?: unknown };
    if (code === state || sqlState === state) return e.message.split('\n')[0] ?? state;
  }
  return state;
}

/** Runs a process's first statement on PostgreSQL, turning the usual reasons it fails into their one line. */
export async function firstContact<T>(url: string, statement: () => Promise<T>): Promise<T> {
  try {
    return await statement();
  } catch (error) {
    throw postgresStartupProblem(error, url) ?? error;
  }
}
