/** Back-off between attempts: what the server asked for (Retry-After), else jittered exponential. */
export type Backoff = {
  /** First delay of the exponential back-off, in ms (default 500). */
  initialDelayMs?: number;
  /** Longest wait between attempts, in ms, Retry-After included (default 30 s). */
  maxDelayMs?: number;
};

export function backoffDelay(attempt: number, retryAfter: number | null, options: Backoff = {}): number {
  const max = options.maxDelayMs ?? 30_000;
  if (retryAfter !== null) return Math.min(retryAfter, max);
  const base = Math.min(max, (options.initialDelayMs ?? 500) * 2 ** attempt);
  // "Full jitter" on the upper half: clients that failed together do not come back together.
  return base / 2 + Math.random() * (base / 2);
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
