import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/** A create request's Idempotency-Key: the same key and body within 24 h returns the first debate. */
export const IdempotencyKeySchema = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    owner: () => p.manyToOne(User).deleteRule('cascade').primary(),
    route: p.string().length(50).primary(),
    key: p.string().length(200).primary(),
    /** SHA-256 of the canonical request body. */
    requestHash: p.string().length(64),
    debateId: p.uuid(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class IdempotencyKey extends IdempotencyKeySchema.class {}
IdempotencyKeySchema.setClass(IdempotencyKey);
