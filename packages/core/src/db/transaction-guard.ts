import { AsyncLocalStorage } from 'node:async_hooks';
import type { TransactionOptions } from '@mikro-orm/core';
import { type AbstractSqlDriver, BasePostgreSqlEntityManager } from '@mikro-orm/sql';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * A query was sent on a connection of its own while a transaction was open in the same async context. It
 * cannot see that transaction's writes, may wait for its locks, and on the embedded database (one
 * connection) it waits for the transaction that waits for it: the whole process stops. Thrown before the
 * query takes a connection, in every mode, so that the mistake shows in the first test that runs it.
 */
export class QueryOutsideTransactionError extends Error {
  override name = 'QueryOutsideTransactionError';
  constructor() {
    super(
      'A query was sent outside the database transaction open in this async context: run it through the ' +
        "transaction's EntityManager (the `em` its callback received), or after the transaction ends",
    );
  }
}

/** A transaction outlived the bound: it was rolled back, and its owner's next statement fails with this. */
export class TransactionTimeoutError extends Error {
  override name = 'TransactionTimeoutError';
  constructor(timeoutMs: number) {
    super(`The database transaction was open longer than ${timeoutMs} ms and was rolled back`);
  }
}

/** What the watchdog says about a transaction it rolled back. */
export type TransactionTimeout = {
  timeoutMs: number;
  /** The first statement the transaction ran after BEGIN, to tell which code held it (no parameters). */
  firstStatement: string | null;
};

export type TransactionGuardOptions = {
  /** A transaction open longer than this is rolled back (its connection freed for everyone else). */
  timeoutMs: number;
  onTimeout: (report: TransactionTimeout) => void;
};

/**
 * The server's own bound on a session idle in a transaction (orm.ts sets it at twice the guard's), lifted
 * for one transaction: an unbounded one may wait between its statements as long as its work needs.
 */
const NO_IDLE_BOUND = CompiledQuery.raw('set local idle_in_transaction_session_timeout = 0');

/**
 * Work that may hold a transaction past the bound: migrations, which take as long as the data needs. Neither
 * the guard nor, on PostgreSQL, the server ends its transactions (a migration lock held while the migrator
 * works on other sessions idles for the whole run; a session the server ended left the start waiting).
 */
const unbounded = new AsyncLocalStorage<true>();
export const withoutTransactionTimeout = <T>(work: () => Promise<T>): Promise<T> => unbounded.run(true, work);

/** Set inside the callback of every `em.transactional`, and closed when the callback is done. */
const openTransaction = new AsyncLocalStorage<{ open: boolean }>();

/**
 * Whether a transaction's callback is running in this async context. A promise started inside the callback
 * may run on after the commit: its context still names the transaction, which then holds nothing.
 */
const transactionOpenHere = () => openTransaction.getStore()?.open === true;

/**
 * Runs `work` on connections of its own although a transaction is open around it: for PostgreSQL-only code
 * that holds a lock in one transaction on purpose while other connections work (migrations). Never on the
 * embedded database, whose one connection the open transaction holds.
 */
export const onOtherConnections = <T>(work: () => Promise<T>): Promise<T> =>
  openTransaction.run({ open: false }, work);

/**
 * The entity manager of both drivers (PostgreSQL's adds nothing to this base), marking the async context of
 * each transaction's callback. MikroORM keeps a context of its own, but a second `em.transactional` on a fresh
 * fork replaces it, so a transaction begun inside another one would go unseen; this mark is nested instead.
 */
export class GuardedEntityManager<
  TDriver extends AbstractSqlDriver = AbstractSqlDriver,
> extends BasePostgreSqlEntityManager<TDriver> {
  override async transactional<T>(
    cb: (em: this) => T | Promise<T>,
    options?: TransactionOptions,
  ): Promise<T> {
    const mark = { open: true };
    try {
      return await super.transactional((em) => openTransaction.run(mark, () => cb(em)), options);
    } finally {
      mark.open = false;
    }
  }
}

/**
 * Wraps a Kysely dialect so that (1) a connection is never taken for a query while a transaction is open in
 * the caller's async context (QueryOutsideTransactionError), and (2) a transaction open past
 * `options.timeoutMs` is rolled back, its connection given back, and its owner's later statements refused.
 * A single-connection database (PGlite) gets its one connection handed out here, behind the check, instead
 * of behind Kysely's own lock, where the check would come too late.
 */
export function guardDialect(dialect: Dialect, options: TransactionGuardOptions): Dialect {
  const adapter = dialect.createAdapter();
  const single = adapter.supportsMultipleConnections === false;
  return {
    createAdapter: () => (single ? multipleConnectionsAdapter(adapter) : adapter),
    createDriver: () => new GuardedDriver(dialect.createDriver(), single, options),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

/** The adapter as it is, except that Kysely is told not to queue for the connection: GuardedDriver does. */
function multipleConnectionsAdapter(adapter: DialectAdapter): DialectAdapter {
  return new Proxy(adapter, {
    get(target, property) {
      if (property === 'supportsMultipleConnections') return true;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** One hand-out of a connection: the watchdog's state for the transaction it may carry. */
class Lease implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  /** The single-connection lock was given back (by the watchdog or on release), so it is not given twice. */
  unlocked = false;
  /** Rolled back by the watchdog: every later statement is refused. */
  expired = false;
  inTransaction = false;
  firstStatement: string | null = null;
  timer: NodeJS.Timeout | undefined;
  /** The statement running now, if any: the watchdog rolls back only after it, never under it. */
  running: Promise<unknown> | null = null;
  private readonly timeoutMs: number;

  constructor(inner: DatabaseConnection, timeoutMs: number) {
    this.inner = inner;
    this.timeoutMs = timeoutMs;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.expired) return Promise.reject(new TransactionTimeoutError(this.timeoutMs));
    if (this.inTransaction && this.firstStatement === null) this.firstStatement = query.sql.slice(0, 200);
    const result = this.inner.executeQuery<R>(query);
    this.running = result;
    return result.finally(() => {
      if (this.running === result) this.running = null;
    });
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.expired) throw new TransactionTimeoutError(this.timeoutMs);
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class GuardedDriver implements Driver {
  readonly #inner: Driver;
  readonly #options: TransactionGuardOptions;
  /** Single-connection databases: who holds the connection now, and who waits for it, in order. */
  readonly #queue: (() => void)[] | null;
  #held = false;

  constructor(inner: Driver, single: boolean, options: TransactionGuardOptions) {
    this.#inner = inner;
    this.#options = options;
    this.#queue = single ? [] : null;
  }

  init(options?: Parameters<Driver['init']>[0]) {
    return this.#inner.init(options);
  }

  async acquireConnection(options?: Parameters<Driver['acquireConnection']>[0]): Promise<DatabaseConnection> {
    if (transactionOpenHere()) throw new QueryOutsideTransactionError();
    await this.#lock();
    try {
      return new Lease(await this.#inner.acquireConnection(options), this.#options.timeoutMs);
    } catch (error) {
      this.#unlock();
      throw error;
    }
  }

  async releaseConnection(
    connection: DatabaseConnection,
    options?: Parameters<Driver['releaseConnection']>[1],
  ) {
    const lease = connection as Lease;
    clearTimeout(lease.timer);
    try {
      await this.#inner.releaseConnection(lease.inner, options);
    } finally {
      if (!lease.unlocked) {
        lease.unlocked = true;
        this.#unlock();
      }
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const lease = connection as Lease;
    await this.#inner.beginTransaction(lease.inner, settings);
    lease.inTransaction = true;
    lease.firstStatement = null;
    if (unbounded.getStore() === true) {
      if (this.#queue === null) await lease.inner.executeQuery(NO_IDLE_BOUND);
    } else {
      lease.timer = setTimeout(() => void this.#expire(lease), this.#options.timeoutMs);
      lease.timer.unref();
    }
  }

  async commitTransaction(connection: DatabaseConnection) {
    const lease = connection as Lease;
    clearTimeout(lease.timer);
    if (lease.expired) throw new TransactionTimeoutError(this.#options.timeoutMs);
    lease.inTransaction = false;
    await this.#inner.commitTransaction(lease.inner);
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    const lease = connection as Lease;
    clearTimeout(lease.timer);
    lease.inTransaction = false;
    // The watchdog rolled it back already.
    if (lease.expired) return;
    try {
      await this.#inner.rollbackTransaction(lease.inner);
    } catch (error) {
      // A session that is gone (the server ended it — its bound on idle transactions, an operator, a restart —
      // or the network cut it) took its transaction with it. Kysely gives a connection back to the pool only
      // after a rollback that succeeded: thrown, each such session kept a slot of the pool for ever, and the
      // tenth left every later transaction waiting. Given back, the pool discards a client it cannot query.
      if (!isConnectionLost(error)) throw error;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    await this.#savepointCall('savepoint', connection as Lease, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    await this.#savepointCall('rollbackToSavepoint', connection as Lease, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    await this.#savepointCall('releaseSavepoint', connection as Lease, name, compile);
  }

  destroy(options?: Parameters<Driver['destroy']>[0]) {
    return this.#inner.destroy(options);
  }

  async #savepointCall(
    method: 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint',
    lease: Lease,
    name: string,
    compile: CompileQuery,
  ) {
    if (lease.expired) throw new TransactionTimeoutError(this.#options.timeoutMs);
    const call = this.#inner[method];
    if (!call) throw new Error(`The database driver does not support ${method}`);
    await call.call(this.#inner, lease.inner, name, compile);
  }

  /**
   * Past the bound: the transaction is rolled back and its connection handed to the next in line. Its owner
   * is still somewhere in its callback; each of its later statements fails, and its own rollback and release
   * find the work done. The rollback waits behind a statement still running on that connection.
   */
  async #expire(lease: Lease) {
    if (!lease.inTransaction || lease.expired) return;
    lease.expired = true;
    this.#options.onTimeout({ timeoutMs: this.#options.timeoutMs, firstStatement: lease.firstStatement });
    // A statement already sent finishes inside the transaction; later ones are refused (`expired`).
    await lease.running?.catch(() => {});
    try {
      await this.#inner.rollbackTransaction(lease.inner);
    } catch {
      // The connection is unusable; its owner's release hands it back to the driver, which discards it.
    }
    lease.inTransaction = false;
    if (this.#queue !== null && !lease.unlocked) {
      lease.unlocked = true;
      this.#unlock();
    }
  }

  async #lock() {
    if (this.#queue === null) return;
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#queue?.push(resolve));
  }

  #unlock() {
    if (this.#queue === null) return;
    const next = this.#queue.shift();
    if (next) next();
    else this.#held = false;
  }
}

type CompileQuery = Parameters<NonNullable<Driver['savepoint']>>[2];

/** node-postgres's errors for a session that ended or a socket that failed (no SQLSTATE: the server said nothing). */
const CONNECTION_LOST =
  /not queryable|Connection terminated|terminating connection|ECONNRESET|EPIPE|socket hang up|write after end/i;

function isConnectionLost(error: unknown): boolean {
  return error instanceof Error && CONNECTION_LOST.test(error.message);
}
