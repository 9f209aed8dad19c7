import { defineEntity, p } from '@mikro-orm/core';

/**
 * One fixed-window counter shared by every API process (counter-store.ts). The table is unlogged (a crash
 * may lose counts, never correctness), which the migration says and an entity cannot.
 */
export const RateLimitCounterSchema = defineEntity({
  name: 'RateLimitCounter',
  tableName: 'rate_limit_counters',
  properties: {
    bucket: p.string().length(200).primary(),
    windowStart: p.bigint('number').primary(),
    count: p.integer(),
    expiresAt: p.datetime().index(),
  },
});

export class RateLimitCounter extends RateLimitCounterSchema.class {}
RateLimitCounterSchema.setClass(RateLimitCounter);
