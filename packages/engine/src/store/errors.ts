import { Data } from 'effect';

/** PostgreSQL did not answer, or refused for a reason waiting can fix; retried within the tolerance. */
export class StorageUnavailable extends Data.TaggedError('StorageUnavailable')<{ readonly cause: unknown }> {}

/** NATS did not take a publish or a command subscription; retried within the tolerance. */
export class BusUnavailable extends Data.TaggedError('BusUnavailable')<{ readonly cause: unknown }> {}

/**
 * This node no longer holds the debate: another node claimed it (and carries it on with a job of its own),
 * or it was finished or deleted. Nothing this node still had to write may be written.
 */
export class LeaseLost extends Data.TaggedError('LeaseLost')<{ readonly debateId: string }> {}

/**
 * A failure no waiting fixes: a stored state that cannot be read back, a statement PostgreSQL refuses as
 * wrong (bad data, a constraint, a permission). Surfaced at once, never retried.
 */
export class PermanentFailure extends Data.TaggedError('PermanentFailure')<{
  readonly reason: string;
  readonly cause?: unknown;
}> {
  override get message() {
    return this.reason;
  }
}

/**
 * SQLSTATE classes no amount of waiting fixes (data, integrity, syntax, authorization): a defect, surfaced at
 * once. Everything else (refused or reset connections, pool timeouts, a server shutting down, serialization
 * failures) is a blip.
 */
const PERMANENT_SQLSTATE = /^(22|23|42|28|2B|3D|3F)/;

/** Errors of the code itself: a bug reading a row is no outage, and retrying it for the tolerance hides it. */
const isCodeDefect = (cause: unknown) =>
  cause instanceof TypeError || cause instanceof RangeError || cause instanceof ReferenceError;

/** What a failed statement means to the engine: a blip to wait out, or a defect. */
export function storageFailure(cause: unknown): StorageUnavailable | PermanentFailure {
  if (isCodeDefect(cause))
    return new PermanentFailure({ reason: `defect: ${(cause as Error).message}`, cause });
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && PERMANENT_SQLSTATE.test(code)) {
    return new PermanentFailure({ reason: `storage refused a statement (SQLSTATE ${code})`, cause });
  }
  return new StorageUnavailable({ cause });
}
