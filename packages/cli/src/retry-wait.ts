import type { RetryWait, VerdictError } from '@verdict/sdk';
import { CliError, EXIT, messageOf } from './exit-codes.ts';

/**
 * The longest rate limit the CLI waits out: the per-minute budgets reset within a minute. A longer wait (the
 * sign-in budget's 15 minutes) fails at once with exit code 4, saying when to try again.
 */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/** The time the waits are measured in; tests pass one they move themselves. */
export type Clock = {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Calls `tick` every `ms` until the function it answers is called. */
  every: (ms: number, tick: () => void) => () => void;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  },
};

/** Where the waits are told: stderr. On a terminal one line counts down in place. */
export type NoticeStream = { write: (text: string) => unknown; isTTY?: boolean };

const CLEAR_LINE = '\r\u001b[K';

/** What is being waited out, in a few words: the server's message without its own "retry in N s". */
function reason(error: VerdictError): string {
  if (error.code === 'RATE_LIMITED') {
    const what = error.message.replace(/[;,.]?\s*retry in \d+ s\.?$/i, '');
    return what ? `rate limited (${what})` : 'rate limited';
  }
  return `${error.code}: ${error.message}`;
}

const clockTime = (at: number) => new Date(at).toTimeString().slice(0, 8);

/**
 * The CLI's `waitBeforeRetry`: sits out each pause the SDK asks for, telling `notices` so: on a terminal a
 * single line counting down, updated in place and cleared when the call goes again; otherwise one plain
 * line per wait. Waits of calls made at once share the line (it counts down to the latest). A rate limit
 * that asks for more than `maxWaitMs` is not waited out: the call fails with exit code 4 and the time to
 * try again.
 */
export function retryWaiter(
  notices: NoticeStream,
  clock: Clock = systemClock,
  maxWaitMs = MAX_RATE_LIMIT_WAIT_MS,
) {
  const deadlines = new Map<symbol, { until: number; reason: string }>();
  let stopTicker: (() => void) | null = null;

  const latest = () => {
    let last: { until: number; reason: string } | null = null;
    for (const wait of deadlines.values()) if (!last || wait.until > last.until) last = wait;
    return last;
  };
  const line = (wait: { until: number; reason: string }) =>
    `verdict: ${wait.reason}; retrying in ${Math.max(0, Math.ceil((wait.until - clock.now()) / 1000))} s`;
  const draw = () => {
    const wait = latest();
    if (wait) notices.write(`${CLEAR_LINE}${line(wait)} (--no-retry fails at once)`);
  };

  return async (wait: RetryWait): Promise<void> => {
    const { error, delayMs } = wait;
    if (error.code === 'RATE_LIMITED' && error.retryAfterMs !== null && error.retryAfterMs > maxWaitMs) {
      const seconds = Math.ceil(error.retryAfterMs / 1000);
      throw new CliError(
        `${messageOf(error)}; not waiting that long (the CLI waits out at most ${maxWaitMs / 1000} s): ` +
          `try again in ${seconds} s, after ${clockTime(clock.now() + error.retryAfterMs)}`,
        EXIT.limits,
      );
    }
    const id = Symbol('wait');
    const mine = { until: clock.now() + delayMs, reason: reason(error) };
    const before = latest();
    deadlines.set(id, mine);
    if (notices.isTTY) {
      draw();
      stopTicker ??= clock.every(1_000, draw);
    } else if (!before || mine.until > before.until + 1_000) {
      // Off a terminal one line per wait; a call made together with one already waiting adds none.
      notices.write(`${line(mine)}\n`);
    }
    try {
      await clock.sleep(delayMs);
    } finally {
      deadlines.delete(id);
      if (notices.isTTY && deadlines.size === 0) {
        stopTicker?.();
        stopTicker = null;
        notices.write(CLEAR_LINE);
      }
    }
  };
}
