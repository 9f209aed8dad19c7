import type { Bus } from './bus/ports.ts';
import type { Config } from './config/config-types.ts';
import type { Database } from './db/orm.ts';
import type { ReadRouting } from './replica/read-routing.ts';
import type { Clock } from './shared/clock.ts';

/**
 * What core's operations run on, built once by the composition (composition/adapters.ts) and handed to
 * each feature: an operation is `(resources) => (…args) => result`, one a file, taking only the part it
 * uses (`Pick<CoreResources, 'db' | 'clock'>`), so a test builds it from what it needs.
 */
export type CoreResources = {
  db: Database;
  /**
   * Where the read-heavy reads go (replica/read-as.ts): a streaming replica when DATABASE_REPLICA_URL is
   * set, with read-your-writes; absent or `primaryOnly`, the primary.
   */
  reads?: ReadRouting;
  clock: Clock;
  bus: Bus;
  config: Config;
  /** Where background failures of a feature's own work are reported. */
  onError: (error: unknown) => void;
};
