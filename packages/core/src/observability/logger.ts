import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type PinoPretty from 'pino-pretty';

export type { Logger } from 'pino';

/**
 * SQLSTATE-carrying errors from PostgreSQL (pg's DatabaseError) and MikroORM's wrappers of them. Their
 * message and `detail` quote the rejected values ("Key (email)=(ada@example.com) already exists"), and
 * those can be emails, password hashes or tokens.
 */
function isDatabaseError(err: Record<string, unknown>): boolean {
  return (
    typeof err.sqlState === 'string' ||
    (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) && 'routine' in err)
  );
}

/** Stack frames only: the first lines of a stack repeat the message. */
const framesOf = (stack: unknown) =>
  typeof stack === 'string'
    ? stack
        .split('\n')
        .filter((line) => line.trimStart().startsWith('at '))
        .join('\n')
    : undefined;

/**
 * The error serializer of every log line. A database error is logged by what identifies the failure —
 * SQLSTATE, table, column, constraint, routine — and never by its message or detail, which carry the
 * statement's values. Causes are followed (a procedure's error wraps the database's).
 */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 5) return err;
  const fields = err as unknown as Record<string, unknown>;
  const cause = 'cause' in err && err.cause !== undefined ? serializeError(err.cause, depth + 1) : undefined;
  if (isDatabaseError(fields)) {
    const pick = (key: string) => (typeof fields[key] === 'string' ? { [key]: fields[key] } : {});
    return {
      type: err.name,
      message: `database error ${String(fields.sqlState ?? fields.code)} (values withheld)`,
      ...pick('code'),
      ...pick('table'),
      ...pick('column'),
      ...pick('constraint'),
      ...pick('routine'),
      stack: framesOf(err.stack),
      ...(cause ? { cause } : {}),
    };
  }
  // Not pino's own serializer: it appends every cause's message (a database error's included) to the message.
  const own = Object.fromEntries(
    Object.entries(fields).filter(([key, value]) => key !== 'cause' && typeof value !== 'function'),
  );
  return { type: err.name, ...own, message: err.message, stack: err.stack, ...(cause ? { cause } : {}) };
}

export type LoggerSettings = {
  level: LoggerOptions['level'];
  /** Fields on every line (e.g. { role: 'engine' }). */
  base?: Record<string, unknown>;
  /** Human-readable lines; the default is to write them when stdout is a terminal, JSON otherwise. */
  pretty?: boolean;
  /** Where JSON lines go (tests capture them); stdout by default. */
  destination?: DestinationStream;
};

/**
 * pino-pretty, loaded only for a terminal: a process whose output goes to a file or a collector (every one
 * a test starts) does without its modules. CommonJS, so required as an import would give it.
 */
const prettyStream = (): typeof PinoPretty =>
  createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

/** The one logger factory of every process: same serializers, JSON for machines, plain lines for people. */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level,
    ...(settings.base ? { base: settings.base } : {}),
    serializers: { err: serializeError, error: serializeError },
  };
  const human = settings.pretty ?? process.stdout.isTTY === true;
  return human
    ? pino(
        options,
        prettyStream()({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }),
      )
    : settings.destination
      ? pino(options, settings.destination)
      : pino(options);
}
