import type { Configuration } from '@mikro-orm/core';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { PostgresDialect } from 'kysely';
import { GuardedEntityManager, guardDialect, type TransactionGuardOptions } from './transaction-guard.ts';

/** MikroORM's PostgreSQL driver, its connections handed out through the transaction guard. */
export function guardedPostgreSqlDriver(guard: TransactionGuardOptions) {
  class GuardedConnection extends PostgreSqlConnection {
    override createKyselyDialect(
      overrides: Parameters<PostgreSqlConnection['createKyselyDialect']>[0],
    ): PostgresDialect {
      // The guard is a dialect of the same behaviour; MikroORM only calls the Dialect interface on it.
      return guardDialect(super.createKyselyDialect(overrides), guard) as PostgresDialect;
    }
  }
  return class GuardedPostgreSqlDriver extends PostgreSqlDriver {
    constructor(config: Configuration) {
      super(config);
      // PostgreSqlDriver names its connection class itself: the guarded one takes its place before first use.
      Object.assign(this, { connection: new GuardedConnection(this.config) });
    }

    /** Its entity manager marks each transaction's async context for the guard. */
    override createEntityManager(useContext?: boolean) {
      return new GuardedEntityManager<this>(this.config, this, this.metadata, useContext);
    }
  };
}
