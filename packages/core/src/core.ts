import { createCollections } from './collections/collections.ts';
import { accountServices } from './composition/account-services.ts';
import { openAdapters } from './composition/adapters.ts';
import { audienceServices } from './composition/audience-services.ts';
import type { CoreOptions } from './composition/core-options.ts';
import { debateServices } from './composition/debate-services.ts';
import { libraryServices } from './composition/library-services.ts';
import type { Config } from './config/config.ts';
import { checkReadiness } from './observability/readiness.ts';
import { cachedRead, debatesByStatus } from './observability/scrape-reads.ts';
import { createViewCounter } from './sharing/view-counter.ts';

export type { CoreOptions } from './composition/core-options.ts';

/** The domain services of one process, wired to its adapters. Built once by each composition root. */
export type Core = Awaited<ReturnType<typeof createCore>>;

/**
 * What request handlers may use: the domain services, without the database, the bus or the clock they are
 * built on (those are for composition roots, the engine's layers and tests).
 */
export type Services = Omit<Core, 'db' | 'bus' | 'clock' | 'close' | 'blobs'>;

/**
 * The composition root of the domain: the adapters the configuration names (composition/adapters.ts), then
 * each group of services on them (composition/*-services.ts), in the order they depend on each other.
 */
export async function createCore(config: Config, options: CoreOptions = {}) {
  const adapters = await openAdapters(config, options);
  const { clock, db, bus } = adapters;
  const accounts = accountServices(adapters, config);
  const collections = createCollections(adapters);
  const debates = debateServices(adapters, config, { collections, plans: accounts.plans });
  const views = createViewCounter({ db, onError: adapters.onError });
  const audience = audienceServices(adapters, config, { ...debates, views, plans: accounts.plans });
  const library = libraryServices(adapters, config, {
    debateAccess: debates.debateAccess,
    plans: accounts.plans,
    embedder: options.embedder ?? null,
    pageFetch: options.pageFetch,
  });
  return {
    config,
    clock,
    db,
    bus,
    /**
     * Read routing (replica/): the API notes each caller's write here (`reads.noteWrite`), so their next
     * read sees it on whichever process serves it; `reads.tallies` feeds verdict_replica_reads_total.
     */
    reads: adapters.reads,
    /** Where attachment bytes live: for the engine nodes' extraction worker of this process. */
    blobs: adapters.blobs,
    /** Readiness: resolves when the database answers within two seconds. */
    checkDatabase: () => db.ping(2000),
    /** Whether this process should be sent work (GET /ready): database, bus, migrations, and `draining`. */
    checkReadiness: (draining: boolean) => checkReadiness({ db, bus }, draining),
    /** Debates by status for a scraper: one grouped count, shared by the scrapes of the next five seconds. */
    debatesByStatus: cachedRead(() => debatesByStatus(db), 5_000),
    ...accounts,
    ...debates,
    collections,
    ...audience,
    ...library,
    close: async () => {
      // What batches its writes stores them first, while the database is still open.
      await views.close();
      await accounts.usage.close();
      await accounts.apiKeys.close();
      await debates.debateEvents.close();
      await adapters.close();
    },
  };
}
