import type { PageFetchOptions } from '../attachments/page-fetch.ts';
import type { TransactionTimeout } from '../db/transaction-guard.ts';
import type { DataDirLock, LockRole } from '../embedded/data-dir-lock.ts';
import type { Clock } from '../shared/clock.ts';
import type { Embedder } from '../similar/embedder.ts';

/** What a composition root may choose beyond the configuration: `createCore`'s options, read by its adapters too. */
export type CoreOptions = {
  clock?: Clock;
  /** Where background failures (counter sweeps …) are reported. */
  onBackgroundError?: (err: unknown) => void;
  /**
   * Counter store for rate limits. Defaults to memory in embedded mode and Postgres in distributed mode
   * (DATABASE_URL set), so limits hold across API processes.
   */
  counters?: 'memory' | 'database';
  /** Informational messages of the persistence layer (migrations applied, embedded database created). */
  log?: (message: string) => void;
  /** Told of each database transaction rolled back for being open past DB_TRANSACTION_TIMEOUT_MS. */
  onTransactionTimeout?: (report: TransactionTimeout) => void;
  /** Embedded mode: the DATA_DIR lock the caller already holds, or the role to take it as (`server`). */
  dataDirLock?: DataDirLock;
  lockRole?: LockRole;
  /** Embeds text for similar-debate lookups (the engine's createEmbedder); none: nothing is similar. */
  embedder?: Embedder | null;
  /** POST /api/debates/fetch-url's limits and SSRF policy beyond the configuration's (tests shorten them). */
  pageFetch?: Partial<PageFetchOptions>;
};
