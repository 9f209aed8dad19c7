import { AppError } from '@verdict/core';
import type { z } from 'zod';
import { zodIssuesToDetails } from '../trpc/app-errors.ts';

/**
 * A stream route's parameter (path, query or header) read with `schema`, or 400 VALIDATION_ERROR whose details
 * name it by `path` ("Last-Event-ID", "lastEventId", "" for the path's own parameters), as a procedure's
 * input errors name their fields. tRPC subscriptions read the same schemas as their input.
 */
export function parseStreamParameter<T extends z.ZodType>(
  schema: T,
  value: unknown,
  path: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = zodIssuesToDetails(result.error.issues).map((issue) => ({
    ...issue,
    path: [path, issue.path].filter(Boolean).join('.'),
  }));
  throw new AppError('VALIDATION_ERROR', 'Request validation failed', { details });
}
