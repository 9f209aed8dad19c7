import { defineEntity, p } from '@mikro-orm/core';
import { ApiKey } from '../keys/api-key.entity.ts';

/**
 * Requests made with one API key in one UTC month to one endpoint (a route template, never a raw path).
 * Rows only grow: each API process adds what it counted since its last write (usage-counter.ts).
 */
export const KeyUsageSchema = defineEntity({
  name: 'KeyUsage',
  tableName: 'key_usage',
  properties: {
    // Keys that are only foreign keys get `on update cascade` by default; ids never change.
    key: () => p.manyToOne(ApiKey).primary().deleteRule('cascade').updateRule('no action'),
    /** The first day of the month (UTC). */
    period: p.date().primary(),
    endpoint: p.text().primary(),
    count: p.bigint('number'),
  },
});

export class KeyUsage extends KeyUsageSchema.class {}
KeyUsageSchema.setClass(KeyUsage);
