import { AppError, serviceBusy } from '../shared/app-error.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';

/**
 * What a request answers for a failure no code anticipated: 503 SERVICE_UNAVAILABLE with Retry-After when
 * the database could not be reached (a restart, a partition: worth trying again in a moment), else 500
 * INTERNAL_ERROR, saying nothing of its cause. The one place every HTTP path turns the unexpected into an
 * answer.
 */
export function unexpectedFailure(error: unknown): AppError {
  if (isDatabaseUnavailable(error)) {
    return serviceBusy('The database is unavailable; try again in a few seconds', 2, error);
  }
  return new AppError('INTERNAL_ERROR', 'Internal server error', { cause: error });
}
