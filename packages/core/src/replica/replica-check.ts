import { sql } from 'kysely';
import { printableDatabaseUrl } from '../db/postgres-startup.ts';
import { hasSqlState } from '../db/sql-state.ts';
import { OperatorError } from '../shared/operator-error.ts';
import { withTimeout } from '../shared/with-timeout.ts';
import { type ReadDatabase, rowsOf } from './open-replica.ts';

type Identity = { standby: boolean; database: string; system: string | null };

/**
 * Whether DATABASE_REPLICA_URL names a standby of DATABASE_URL's own cluster (same system identifier, same
 * database): a primary of its own, or another cluster's standby, would answer every read with other data
 * for as long as the process runs, so that refuses the start. A replica that does not answer is only
 * reported (the returned line): reads go to the primary until it does, as when it fails later.
 */
export async function checkReplica(
  primary: ReadDatabase,
  replica: ReadDatabase,
  replicaUrl: string,
): Promise<string | null> {
  const shown = `DATABASE_REPLICA_URL=${printableDatabaseUrl(replicaUrl)}`;
  const ours = await identityOf(primary);
  let theirs: Identity;
  try {
    theirs = await withTimeout(identityOf(replica), 2_000, 'read replica check');
  } catch (error) {
    return `read replica not answering (${(error as Error).message}); reads go to the primary until it does: ${shown}`;
  }
  const refuse = (why: string) =>
    new OperatorError(`${shown} is ${why}; name a streaming standby of DATABASE_URL`);
  if (!theirs.standby) throw refuse('not a standby (pg_is_in_recovery() is false)');
  if (theirs.database !== ours.database)
    throw refuse(`database "${theirs.database}", not "${ours.database}"`);
  if (ours.system && theirs.system && ours.system !== theirs.system) {
    throw refuse(`a copy of another cluster (system identifier ${theirs.system}, not ${ours.system})`);
  }
  return null;
}

async function identityOf(db: ReadDatabase): Promise<Identity> {
  const [row] = await rowsOf(
    db,
    sql<{
      standby: boolean;
      database: string;
    }>`select pg_is_in_recovery() as standby, current_database() as database`,
  );
  if (!row) throw new Error('no answer to the identity query');
  return { ...row, system: await systemIdentifier(db) };
}

/** The cluster's identity, which a standby made by pg_basebackup shares; null where the role may not read it. */
async function systemIdentifier(db: ReadDatabase): Promise<string | null> {
  try {
    const [row] = await rowsOf(
      db,
      sql<{ system: string }>`select system_identifier::text as system from pg_control_system()`,
    );
    return row?.system ?? null;
  } catch (error) {
    if (hasSqlState(error, '42501')) return null;
    throw error;
  }
}
