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

/**
 * The `retry:` a stream ended by a shutdown sends, in ms: the client's EventSource reconnects after about
 * this long, through the load balancer, to a process that is not going away. Spread over a second so a
 * process's thousands of streams do not all come back in the same instant.
 */
export function reconnectHintMs(random: () => number = Math.random): number {
  return 500 + Math.floor(random() * 1000);
}
