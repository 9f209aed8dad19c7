import type { Bus } from '../../bus/ports.ts';
import type { Config } from '../../config/config.ts';
import type { Database } from '../../db/orm.ts';
import type { Clock } from '../../shared/clock.ts';
import type { DebateAttachments } from './request.ts';

/**
 * What the parts of creation share, built once by `createDebateCreation` and handed to each: create, retry,
 * funding and dispatch read their database, clock, bus and settings from here rather than each taking them.
 */
export type CreationResources = {
  db: Database;
  bus: Bus;
  clock: Clock;
  config: Config;
  /** Where a refused enqueue is reported (the debate is stored; the reconciler queues it later). */
  onQueueError: (error: unknown) => void;
  /** Where a refusal for want of a plan points. */
  upgradeUrl: string;
  /** How a request's attachmentIds reach the debate. */
  attachments: DebateAttachments;
};
