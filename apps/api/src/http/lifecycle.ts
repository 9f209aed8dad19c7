/**
 * Where an API process is in its life. Serving until SIGTERM; then draining: GET /ready answers 503 so a
 * load balancer routes elsewhere, while what is in flight finishes (main.ts's shutdown).
 */
export type Lifecycle = {
  readonly draining: boolean;
  /** From now on the process is draining; idempotent. */
  drain: () => void;
};

export function createLifecycle(): Lifecycle {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    drain: () => {
      draining = true;
    },
  };
}
