import { ConnectionException } from '@mikro-orm/core';
import { networkCause } from '../shared/network-cause.ts';
import { sqlStateOf } from './sql-state.ts';

/**
 * SQLSTATEs of a server that is not there to answer: class 08 (connection exception), and the operator
 * intervention ones a restarting server sends (57P01 admin shutdown, 57P02 crash shutdown, 57P03 "the
 * database system is starting up").
 */
const UNAVAILABLE_STATE = /^(08...|57P0[123])$/;

/** What node-postgres says of a connection that went away under a query, which carries no code. */
const LOST_CONNECTION =
  /Connection terminated|connection error|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * Whether an error, or one it wraps, says the database could not be reached or went away (a restart, a
 * partition, a refused connection), rather than that a statement was wrong: such a request is worth
 * answering 503 with Retry-After (the client may try again), not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (sqlStateOf(error, (state) => UNAVAILABLE_STATE.test(state)) !== null) return true;
  if (networkCause(error) !== null) return true;
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof ConnectionException || LOST_CONNECTION.test(e.message)) return true;
  }
  return false;
}
