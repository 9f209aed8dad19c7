import type { ReadinessChecks } from '@verdict/contracts';
import type { Bus } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';

/** How long each dependency has to answer a readiness check: a probe must answer before its own timeout. */
export const READINESS_TIMEOUT_MS = 2000;

/** The checks, whether they all passed, and, when not, the 503's message naming each failure. */
export type Readiness = { ready: boolean; checks: ReadinessChecks; message: string };

/**
 * Whether this process should be sent work: its database and bus answer, the schema is this version's, and
 * it is not draining. Both checks run at once, each bounded, so a dead dependency costs one timeout, not two.
 */
export async function checkReadiness(
  deps: { db: Pick<Database, 'pendingMigrations'>; bus: Pick<Bus, 'ping'> },
  draining: boolean,
): Promise<Readiness> {
  const [migrations, bus] = await Promise.allSettled([
    deps.db.pendingMigrations(READINESS_TIMEOUT_MS),
    deps.bus.ping(READINESS_TIMEOUT_MS),
  ]);
  const checks: ReadinessChecks = {
    database: migrations.status === 'fulfilled' ? 'ok' : 'unavailable',
    bus: bus.status === 'fulfilled' ? 'ok' : 'unavailable',
    migrations:
      migrations.status === 'rejected' ? 'unknown' : migrations.value.length === 0 ? 'ok' : 'pending',
    draining,
  };
  const problems = [
    ...(checks.database === 'unavailable' ? ['the database does not answer'] : []),
    ...(checks.bus === 'unavailable' ? ['the bus does not answer'] : []),
    ...(migrations.status === 'fulfilled' && migrations.value.length > 0
      ? [`migrations not applied: ${migrations.value.join(', ')}`]
      : []),
    ...(draining ? ['the process is shutting down'] : []),
  ];
  const ready = problems.length === 0;
  return { ready, checks, message: ready ? 'Ready' : `Not ready: ${problems.join('; ')}` };
}
