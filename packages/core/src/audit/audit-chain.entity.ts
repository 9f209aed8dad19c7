import { defineEntity, p } from '@mikro-orm/core';

/**
 * Each chain's last entry: the row every append locks, so a chain's entries are numbered and linked one
 * after another however many transactions append at once. Not trusted by verification, only compared.
 */
export const AuditChainSchema = defineEntity({
  name: 'AuditChain',
  tableName: 'audit_chains',
  properties: {
    chain: p.text().primary(),
    seq: p.bigint('number'),
    hash: p.text(),
  },
});

export class AuditChain extends AuditChainSchema.class {}
AuditChainSchema.setClass(AuditChain);
