/**
 * `work`, or the signal's reason once it aborts, whichever comes first: whatever `work` still waits on no
 * longer holds up the caller. For outbound requests: undici does not fail a request whose connection is
 * still being made when the request's signal aborts, so the request alone would outlive its deadline.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
