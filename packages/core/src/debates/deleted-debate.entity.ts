import { defineEntity, p } from '@mikro-orm/core';

/** A permanently deleted debate's tombstone: a repeated DELETE /v1/verdicts/:id answers its owner 200. */
export const DeletedDebateSchema = defineEntity({
  name: 'DeletedDebate',
  tableName: 'deleted_debates',
  properties: {
    id: p.uuid().primary(),
    ownerId: p.uuid(),
    deletedAt: p.datetime().defaultRaw('now()'),
  },
});

export class DeletedDebate extends DeletedDebateSchema.class {}
DeletedDebateSchema.setClass(DeletedDebate);
