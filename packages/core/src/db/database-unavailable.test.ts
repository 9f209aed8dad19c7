import { ConnectionException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import { unexpectedFailure } from './unexpected-failure.ts';

/** An error as node-postgres makes one: a message, and the server's SQLSTATE or the socket's code. */
const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('a database that cannot be reached', () => {
  it('is told from the errors a restart, a partition or a refused connection give', () => {
    for (const error of [
      pgError('the database system is starting up', '57P03'),
      pgError('terminating connection due to administrator command', '57P01'),
      pgError('connection failure', '08006'),
      pgError('connect ECONNREFUSED 10.1.0.2:5432', 'ECONNREFUSED'),
      pgError('read ECONNRESET', 'ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new ConnectionException(pgError('connect ETIMEDOUT', 'ETIMEDOUT')),
      // Wrapped, as the ORM and the tRPC layer wrap what they catch.
      new Error('query failed', { cause: pgError('the database system is shutting down', '57P03') }),
    ]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    }
  });

  it('is not what a wrong statement or a bug gives', () => {
    for (const error of [
      pgError('duplicate key value violates unique constraint', '23505'),
      new UniqueConstraintViolationException(pgError('duplicate key', '23505')),
      pgError('deadlock detected', '40P01'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'a string',
      null,
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });

  it('answers 503 with Retry-After for an unreachable database, 500 saying nothing for anything else', () => {
    const away = unexpectedFailure(pgError('the database system is starting up', '57P03'));
    expect(away.code).toBe('SERVICE_UNAVAILABLE');
    expect(away.headers['Retry-After']).toBe('2');
    expect(away.message).not.toContain('57P03');
    const bug = unexpectedFailure(new TypeError('secret detail'));
    expect(bug.code).toBe('INTERNAL_ERROR');
    expect(bug.message).toBe('Internal server error');
  });
});
