import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/app-error.ts';
import { isReplicaTrouble } from './read-routing.ts';

/** An error as node-postgres raises it: the SQLSTATE in `code`. */
const sqlError = (code: string) => Object.assign(new Error(`sql ${code}`), { code });

describe('isReplicaTrouble', () => {
  it("reads again on the primary what failed for the replica's sake", () => {
    expect(isReplicaTrouble(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isReplicaTrouble(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(true);
    expect(isReplicaTrouble(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isReplicaTrouble(sqlError('40001'))).toBe(true); // canceled for a conflict with recovery
    expect(isReplicaTrouble(sqlError('57P01'))).toBe(true); // the standby shutting down
    expect(isReplicaTrouble(new Error('wrapped', { cause: sqlError('42P01') }))).toBe(true);
  });

  it('does not run twice a read that failed for its own sake', () => {
    expect(isReplicaTrouble(sqlError('57014'))).toBe(false); // its statement_timeout
    expect(isReplicaTrouble(sqlError('42703'))).toBe(false); // a column that does not exist
    expect(isReplicaTrouble(new AppError('NOT_FOUND', 'no such debate'))).toBe(false);
    expect(isReplicaTrouble(new Error('Query read timeout'))).toBe(false); // the driver's query_timeout
    expect(isReplicaTrouble(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });
});
