import { defineEntity, p } from '@mikro-orm/core';
import type { Plan } from '@verdict/contracts';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  // The balance can never go below zero, whatever races the callers run.
  checks: [{ name: 'users_credit_balance_check', expression: 'credit_balance >= 0' }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    email: p.string().length(254).unique(),
    name: p.string().length(100),
    /** scrypt hash in PHC-like form; null for accounts created without a password (API-key only). */
    passwordHash: p.string().nullable(),
    plan: p.string().$type<Plan>().default('free'),
    /** Cached balance; every change also writes a credit_ledger row in the same transaction. */
    creditBalance: p.integer().default(0),
    /** Operator-set per-minute request limit of the whole account; null means the plan's limit. */
    rateLimitPerMinute: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);
