import { execFileSync } from 'node:child_process';

/**
 * Transactions committed so far in the database of `databaseUrl` (pg_stat_database.xact_commit, through
 * psql), or null where psql cannot say. A statement outside a transaction block commits one, so on a path
 * of single statements the difference over a window is the statements sent to PostgreSQL: its round trips.
 * Backends report their counts at the end of a transaction at most once a second (up to 10 s late when
 * idle), so a window of steady load has about a second of lag at both ends, which largely cancels.
 */
export function pgTransactionsCommitted(databaseUrl: string): number | null {
  try {
    const out = execFileSync(
      'psql',
      [databaseUrl, '-tAc', 'select xact_commit from pg_stat_database where datname = current_database()'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const value = Number(out.trim());
    return Number.isFinite(value) && out.trim() !== '' ? value : null;
  } catch {
    return null;
  }
}
