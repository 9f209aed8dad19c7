import type { EntityManager } from '@mikro-orm/core';
import type { Notification } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { CreationResult, DebateRequest } from '../debates/creation.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { Notifications } from '../notifications/notifications.ts';
import { recordNotification } from '../notifications/record.ts';
import type { CoreResources } from '../resources.ts';
import { notFound } from '../shared/app-error.ts';
import { clip } from '../shared/text.ts';
import type { SharingTables } from './tables.ts';

type Tables = DebateTables & SharingTables & AccountTables;

/** What forking runs on: the debates' creation makes the fork, `notifications` tells its source's owner. */
export type ForkResources = Pick<CoreResources, 'db' | 'clock'> & {
  create: (request: DebateRequest) => Promise<CreationResult>;
  notifications: Notifications;
  /** Whether the notification is also queued as an email. */
  emailEnabled: boolean;
};

export type ForkSource = { id: string; ownerId: string; question: string; context: string | null };

/**
 * Forks: who may run someone's debate again, and the notification its owner gets. A public debate may be
 * forked by any signed-in user, a shared one when its link allows forks; anything else is "not found".
 */
export function createForks({ db, clock, create, notifications, emailEnabled }: ForkResources) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  return {
    /**
     * Creates the fork of `debateId` as `requestFor` asks, given what it is forked from; someone else's fork
     * notifies the source's owner in the same transaction.
     */
    fork: async (
      debateId: string,
      requestFor: (source: ForkSource) => DebateRequest,
    ): Promise<CreationResult> => {
      const source = await forkSource(db.em(), debateId);
      const request = requestFor(source);
      let notification: Notification | null = null;
      const result = await create({
        ...request,
        forkedFromId: source.id,
        alsoWrite: async (em) => {
          if (request.ownerId === source.ownerId) return;
          const actor = await k(em)
            .selectFrom('users')
            .select('name')
            .where('id', '=', request.ownerId)
            .executeTakeFirstOrThrow();
          notification = await recordNotification(
            em,
            {
              userId: source.ownerId,
              type: 'fork',
              message: `${actor.name} forked your debate "${clip(source.question, 80)}"`,
              debateId: source.id,
              actorId: request.ownerId,
              actorName: actor.name,
            },
            { emailEnabled, at: new Date(clock.now()) },
          );
        },
      });
      if (notification) notifications.publish(source.ownerId, notification);
      return result;
    },
  };
}

/** The debate to fork, or NOT_FOUND unless it is public or its share link allows forks. */
async function forkSource(em: EntityManager, debateId: string): Promise<ForkSource> {
  const row = await query<Tables>(em)
    .selectFrom('debates as d')
    .leftJoin('share_links as s', 's.debate_id', 'd.id')
    .select(['d.id', 'd.owner_id', 'd.question', 'd.context', 'd.is_public', 's.allow_fork'])
    .where('d.id', '=', debateId)
    .where('d.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row || !(row.is_public || row.allow_fork === true)) throw notFound('Debate');
  return { id: row.id, ownerId: row.owner_id, question: row.question, context: row.context ?? null };
}
