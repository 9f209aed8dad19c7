import { Context, Effect, type Fiber, Logger, References, Tracer } from 'effect';
import { bridgedTraceId } from './tracing/otel-tracer.ts';

/**
 * The engine logs through Effect's logger (`logLine` below, or Effect.logInfo/logWarning/logError with a
 * message and optional details), and the process's logger receives each line through `engineLogger`: the
 * composition roots hand the engine a `LogFn` (their pino logger), and tests a recorder.
 */
export type LogLevel = 'info' | 'warn' | 'error';
export type LogFn = (level: LogLevel, message: string, details?: Record<string, unknown>) => void;

/** One log line: a message and, when there is more to say, the details (the process logger's fields). */
export const logLine = (level: LogLevel, message: string, details?: Record<string, unknown>) => {
  const write = level === 'error' ? Effect.logError : level === 'warn' ? Effect.logWarning : Effect.logInfo;
  return details ? write(message, details) : write(message);
};

const levelOf = (level: string): LogLevel =>
  level === 'Fatal' || level === 'Error' ? 'error' : level === 'Warn' ? 'warn' : 'info';

/**
 * What a line says of where it was logged: the log annotations (a job's request id) and, when the line was
 * logged inside an exported span, its trace id.
 */
function contextFields(fiber: Fiber.Fiber<unknown, unknown>) {
  const annotations = fiber.getRef(References.CurrentLogAnnotations);
  const traceId = bridgedTraceId(Context.getOrUndefined(fiber.context, Tracer.ParentSpan));
  if (!traceId && Object.keys(annotations).length === 0) return undefined;
  return { ...annotations, ...(traceId ? { traceId } : {}) };
}

/** A logger handing each line to `log` as (level, message, details); debug and trace lines are dropped. */
export const engineLogger = (log: LogFn) =>
  Logger.make(({ logLevel, message, fiber }) => {
    if (logLevel === 'Debug' || logLevel === 'Trace') return;
    const [text, details] = Array.isArray(message) ? message : [message];
    const fields = details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined;
    const where = contextFields(fiber);
    log(levelOf(logLevel), String(text), where ? { ...where, ...fields } : fields);
  });

/** The engine's logging: every line to `log`, none to the console (absent: the engine says nothing). */
export const engineLogLayer = (log?: LogFn) =>
  Logger.layer(log ? [engineLogger(log)] : [Logger.make(() => {})]);

/** Runs `effect` with the engine's lines going to `log`: for tests that read what a program logged. */
export const withLog =
  (log: LogFn) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.provide(effect, engineLogLayer(log));

/** A plain `LogFn` writing through the current fiber's loggers: for callbacks that run outside Effect. */
export const currentLogFn: Effect.Effect<LogFn> = Effect.map(
  Effect.context<never>(),
  (context) => (level, message, details) => Effect.runSyncWith(context)(logLine(level, message, details)),
);
