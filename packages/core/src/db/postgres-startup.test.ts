import { describe, expect, it } from 'vitest';
import { OperatorError } from '../shared/operator-error.ts';
import {
  databaseName,
  postgresAddress,
  postgresStartupProblem,
  printableDatabaseUrl,
} from './postgres-startup.ts';

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:6543'), { code: 'ECONNREFUSED' });

describe('PostgreSQL start-up problems', () => {
  it('prints DATABASE_URL without the password, wherever the URL carries it', () => {
    expect(printableDatabaseUrl('postgres://app:pw@db.internal:6543/verdict')).toBe(
      'postgres://app@db.internal:6543/verdict',
    );
    expect(printableDatabaseUrl('postgres://app@db.internal/verdict?password=pw&sslmode=require')).toBe(
      'postgres://app@db.internal/verdict?sslmode=require',
    );
  });

  it("takes libpq's defaults for what the URL leaves out", () => {
    expect(postgresAddress('postgres://app@db.internal/verdict')).toBe('db.internal:5432');
    expect(databaseName('postgres://app@db.internal:6543')).toBe('app');
    expect(databaseName('postgres://db.internal/my%20db')).toBe('my db');
  });

  it('words a refused connection found inside the wrappers of a host with several addresses', () => {
    const wrapped = new Error('driver failed', { cause: new AggregateError([refused(), refused()]) });
    const problem = postgresStartupProblem(wrapped, 'postgres://app:pw@db.internal:6543/verdict');
    expect(problem).toBeInstanceOf(OperatorError);
    expect(problem?.message).toBe(
      'cannot reach PostgreSQL at db.internal:6543 (connection refused); is it running? ' +
        'DATABASE_URL=postgres://app@db.internal:6543/verdict',
    );
  });

  it('words a refused login with the server message, and leaves any other failure alone', () => {
    const login = Object.assign(new Error('password authentication failed for user "app"'), {
      code: '28P01',
    });
    expect(postgresStartupProblem(login, 'postgres://app:pw@db:5432/verdict')?.message).toBe(
      'PostgreSQL at db:5432 refused the login (password authentication failed for user "app"); ' +
        'check DATABASE_URL=postgres://app@db:5432/verdict',
    );
    expect(postgresStartupProblem(new Error('syntax error'), 'postgres://db/verdict')).toBeNull();
  });
});
