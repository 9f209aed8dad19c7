/** The holder of a debate lost its lease: another node claimed the debate, or it was deleted. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
  constructor(debateId: string) {
    super(`this node no longer holds debate ${debateId}`);
  }
}

/** A failure no waiting fixes (stored state that cannot be read back): surfaced at once, never retried. */
export class PermanentFailure extends Error {
  override name = 'PermanentFailure';
}

/**
 * SQLSTATE classes that no amount of waiting fixes (bad data, constraint, syntax or permission errors):
 * those are bugs, surfaced at once. Everything else (refused or reset connections, pool timeouts, a
 * server shutting down, serialization failures) is treated as a blip.
 */
const PERMANENT_SQLSTATE = /^(22|23|42|28|2B|3D|3F)/;

export function isTransientStorageError(error: unknown): boolean {
  if (error instanceof LeaseLost || error instanceof PermanentFailure) return false;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return !PERMANENT_SQLSTATE.test(code);
  return true;
}

export type StorageRetryPolicy = {
  /** How long one write keeps trying through an outage before the node gives the debate back. */
  toleranceMs: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
};

/**
 * Runs a storage or bus write, retrying transient failures with capped exponential backoff until the
 * tolerance is used up. A blip shorter than the tolerance therefore pauses a debate instead of failing it.
 */
export async function withStorageRetry<T>(
  write: () => Promise<T>,
  policy: StorageRetryPolicy,
  isTransient: (error: unknown) => boolean = isTransientStorageError,
): Promise<T> {
  const deadline = Date.now() + policy.toleranceMs;
  let delay = policy.firstDelayMs ?? 100;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isTransient(error) || Date.now() + delay > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, policy.maxDelayMs ?? 2000);
    }
  }
}
