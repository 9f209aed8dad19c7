import type { EntityManager } from '@mikro-orm/core';
import { PLANS } from '@verdict/contracts';
import { AppError, notFound } from '../shared/app-error.ts';
import { scheduleQuery } from './schedule-resources.ts';
import { SCHEDULE_COLUMNS } from './schedule-views.ts';

/**
 * The caller's schedule, its row locked until `em`'s transaction ends when `lock`. Someone else's is
 * FORBIDDEN, a missing one NOT_FOUND.
 */
export const ownedSchedule = async (em: EntityManager, userId: string, id: string, lock: boolean) => {
  let select = scheduleQuery(em)
    .selectFrom('scheduled_debates')
    .select(SCHEDULE_COLUMNS)
    .where('id', '=', id);
  if (lock) select = select.forUpdate();
  const row = await select.executeTakeFirst();
  if (!row) throw notFound('Scheduled debate');
  if (row.user_id !== userId)
    throw new AppError('FORBIDDEN', 'This scheduled debate belongs to another user');
  return row;
};

/** Why a BYOK plan's schedule is refused: shown as the 400's message and its detail. */
export const BYOK_SCHEDULE_REFUSAL =
  'Scheduled debates cannot run on a BYOK plan: its debates run on the provider keys sent with each ' +
  'request (X-Provider-Keys), which are never stored, so a scheduled run would have none';

/**
 * Refuses to make a schedule active whose runs could never be paid: a BYOK plan runs every debate on the
 * provider keys of its request, and those are never stored (spec, Authentication 6). 400 VALIDATION_ERROR,
 * the refusal the spec lists for this route and the code a BYOK debate without its keys gets; a 201 would
 * promise runs that all fail.
 */
export const assertRunsFundable = async (em: EntityManager, userId: string) => {
  const user = await scheduleQuery(em)
    .selectFrom('users')
    .select('plan')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (user && PLANS[user.plan].ownProviderKeys) {
    throw new AppError('VALIDATION_ERROR', BYOK_SCHEDULE_REFUSAL, {
      details: [{ path: '', message: BYOK_SCHEDULE_REFUSAL, code: 'provider_keys_not_stored' }],
    });
  }
};
