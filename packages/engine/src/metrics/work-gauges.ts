import {
  type Bus,
  type Clock,
  cachedRead,
  type Database,
  Gauge,
  type Registry,
  workBacklog,
} from '@verdict/core';

/**
 * How long a scrape's reads of the queue and the database are shared with the scrapes after it: a fleet of
 * scrapers costs the database one small statement per node and period, whatever their number.
 */
export const SCRAPE_READ_TTL_MS = 5_000;

/**
 * The work waiting for the engine nodes, read at scrape time: the debate jobs no node has taken (JetStream's
 * pending count, the embedded queue's length), the oldest outbox row and due webhook delivery, and the
 * embedding and extraction queues. A read that fails shows as NaN (unknown) rather than an old value.
 * Every node reads the same database and queue: a dashboard takes the max over nodes, not the sum.
 */
export function observeWaitingWork(registry: Registry, sources: { bus: Bus; db: Database; clock: Clock }) {
  const registers = [registry];
  const now = sources.clock.now;
  const waiting = cachedRead(() => sources.bus.jobs.waiting(), SCRAPE_READ_TTL_MS, now);
  const backlog = cachedRead(() => workBacklog(sources.db, sources.clock), SCRAPE_READ_TTL_MS, now);
  new Gauge({
    name: 'verdict_engine_queue_waiting',
    help: 'Debate jobs queued that no engine node has taken yet (the JetStream consumer pending, or the embedded queue)',
    registers,
    async collect() {
      this.set(await waiting().catch(() => Number.NaN));
    },
  });
  const fromBacklog = (
    name: string,
    help: string,
    pick: (b: Awaited<ReturnType<typeof backlog>>) => number,
  ) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        this.set(await backlog().then(pick, () => Number.NaN));
      },
    });
  fromBacklog(
    'verdict_webhook_outbox_lag_seconds',
    'Age of the oldest webhook outbox row not yet fanned out to deliveries (0 when none waits)',
    (b) => b.outboxLagSeconds,
  );
  fromBacklog(
    'verdict_webhook_delivery_lag_seconds',
    'How long the oldest due, undelivered webhook delivery has been due (0 when none is due)',
    (b) => b.deliveryLagSeconds,
  );
  fromBacklog(
    'verdict_embeddings_pending',
    'Completed debates waiting for their embedding (the embedding queue)',
    (b) => b.embeddingsPending,
  );
  fromBacklog(
    'verdict_extractions_pending',
    'Uploaded files whose text is not extracted yet',
    (b) => b.extractionsPending,
  );
}
