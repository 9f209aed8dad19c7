import type { EntityManager } from '@mikro-orm/core';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { Notifications } from '../notifications/notifications.ts';
import type { CoreResources } from '../resources.ts';
import type { SharingTables } from '../sharing/tables.ts';
import type { CommentTables } from './tables.ts';

/** What the comments' operations run on. */
export type CommentResources = Pick<CoreResources, 'db' | 'clock'> & {
  debateAccess: DebateAccess;
  notifications: Notifications;
  /** Whether a comment's notification also queues an email (only when the service can send them). */
  email: { emailEnabled: boolean };
};

/** Typed queries on the comments, their authors and the share links that allow them, on `em`. */
export const commentQuery = (em: EntityManager) => query<CommentTables & AccountTables & SharingTables>(em);
