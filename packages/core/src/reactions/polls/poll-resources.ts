import type { EntityManager } from '@mikro-orm/core';
import { query } from '../../db/kysely.ts';
import type { DebateAccess } from '../../debates/debate-access.ts';
import type { DebateTables } from '../../debates/tables.ts';
import type { CoreResources } from '../../resources.ts';
import { AppError, notFound } from '../../shared/app-error.ts';
import type { ReactionTables } from '../tables.ts';
import { readPolls } from './poll-views.ts';

/** What the poll operations run on: core's database and clock, and who may read and own a debate. */
export type PollResources = Pick<CoreResources, 'db' | 'clock'> & { debateAccess: DebateAccess };

/** Typed queries on the polls, their votes and the debates they are on, on `em`. */
export const pollQuery = (em: EntityManager) => query<ReactionTables & DebateTables>(em);

/** Refuses anyone but the debate's owner (FORBIDDEN), saying what only the owner may `action`. */
export async function assertDebateOwner(
  debateAccess: DebateAccess,
  userId: string,
  debateId: string,
  action: string,
): Promise<void> {
  const { isOwner } = await debateAccess.audience(userId, debateId);
  if (!isOwner) throw new AppError('FORBIDDEN', `Only the debate's owner may ${action}`);
}

/** One poll of the debate as `readerId` sees it in `em`; NOT_FOUND when the debate has no such poll. */
export async function onePoll(em: EntityManager, debateId: string, readerId: string, pollId: string) {
  const [poll] = await readPolls(em, debateId, readerId, pollId);
  if (!poll) throw notFound('Poll');
  return poll;
}
