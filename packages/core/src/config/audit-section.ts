import { PLANS, Plan } from '@verdict/contracts';
import { ConfigError } from './config-error.ts';
import type { Config } from './config-types.ts';
import type { Env } from './env-schema.ts';

/** The least retention: the database refuses to remove younger entries (migration 0038). */
const LEAST_RETENTION_DAYS = 30;

/** Each plan's audit retention: the plan table's, with AUDIT_RETENTION_DAYS' overrides. */
export function auditOf(e: Env): Config['audit'] {
  const retentionDays = Object.fromEntries(
    Plan.options.map((plan) => [plan, PLANS[plan].auditRetentionDays]),
  ) as Record<Plan, number>;
  for (const pair of e.AUDIT_RETENTION_DAYS?.split(',') ?? []) {
    const [name = '', days = ''] = pair.trim().split('=');
    const plan = Plan.safeParse(name);
    if (!plan.success) throw invalid(`"${name}" is no plan (${Plan.options.join(', ')})`);
    if (Number(days) < LEAST_RETENTION_DAYS)
      throw invalid(`${name}=${days}: at least ${LEAST_RETENTION_DAYS} days`);
    retentionDays[plan.data] = Number(days);
  }
  return { retentionDays };
}

const invalid = (problem: string) =>
  new ConfigError(`Invalid environment:\n  AUDIT_RETENTION_DAYS: ${problem}`);
