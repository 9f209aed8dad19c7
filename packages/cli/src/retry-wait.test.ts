import { VerdictError } from '@verdict/sdk';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from './exit-codes.ts';
import { type Clock, retryWaiter } from './retry-wait.ts';

/** A clock that moves only when told to: sleeps end and ticks fire as `advance` passes them. */
function manualClock(start = Date.parse('2026-11-26T10:00:18Z')) {
  let now = start;
  const sleepers: { until: number; wake: () => void }[] = [];
  const tickers = new Set<{ every: number; next: number; tick: () => void }>();
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ until: now + ms, wake })),
    every: (ms, tick) => {
      const ticker = { every: ms, next: now + ms, tick };
      tickers.add(ticker);
      return () => tickers.delete(ticker);
    },
  };
  const advance = async (ms: number) => {
    const end = now + ms;
    for (let step = now + 1; step <= end; step++) {
      now = step;
      for (const ticker of tickers)
        if (ticker.next <= now) {
          ticker.tick();
          ticker.next += ticker.every;
        }
      for (const sleeper of sleepers.filter((s) => s.until <= now)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.wake();
      }
      await Promise.resolve();
    }
  };
  return { clock, advance };
}

const screen = (tty: boolean) => {
  const writes: string[] = [];
  return { writes, stream: { isTTY: tty, write: (text: string) => writes.push(text) } };
};

const rateLimited = (seconds: number) =>
  new VerdictError({
    status: 429,
    code: 'RATE_LIMITED',
    message: `At most 10 requests per minute; retry in ${seconds} s`,
    retryAfterMs: seconds * 1000,
    requestId: 'req-1',
  });

describe('waiting out a rate limit', () => {
  it('counts down on one terminal line, updated in place each second and cleared before the retry', async () => {
    const { clock, advance } = manualClock();
    const out = screen(true);
    const wait = retryWaiter(out.stream, clock);
    let done = false;
    const waiting = wait({ attempt: 1, delayMs: 42_000, error: rateLimited(42) }).then(() => {
      done = true;
    });
    expect(out.writes).toEqual([
      '\r\u001b[Kverdict: rate limited (At most 10 requests per minute); retrying in 42 s (--no-retry fails at once)',
    ]);
    await advance(1_000);
    expect(out.writes.at(-1)).toContain('retrying in 41 s');
    await advance(40_000);
    expect(out.writes.at(-1)).toContain('retrying in 1 s');
    expect(done).toBe(false);
    await advance(1_000);
    await waiting;
    expect(out.writes.at(-1)).toBe('\r\u001b[K');
    expect(out.writes.every((text) => !text.includes('\n'))).toBe(true); // never a new line
  });

  it('writes one plain line off a terminal, and none more for a call waiting alongside', async () => {
    const { clock, advance } = manualClock();
    const out = screen(false);
    const wait = retryWaiter(out.stream, clock);
    const both = Promise.all([
      wait({ attempt: 1, delayMs: 30_000, error: rateLimited(30) }),
      wait({ attempt: 1, delayMs: 30_000, error: rateLimited(30) }),
    ]);
    await advance(30_000);
    await both;
    expect(out.writes).toEqual([
      'verdict: rate limited (At most 10 requests per minute); retrying in 30 s\n',
    ]);
  });

  it('does not wait out more than a minute: exit code 4, saying when to try again', async () => {
    const { clock } = manualClock(Date.parse('2026-11-26T10:00:18'));
    const out = screen(false);
    const wait = retryWaiter(out.stream, clock);
    const error = await wait({
      attempt: 1,
      delayMs: 60_000,
      error: rateLimited(900),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(EXIT.limits);
    expect((error as CliError).message).toContain('RATE_LIMITED');
    expect((error as CliError).message).toContain('try again in 900 s, after 10:15:18');
    expect(out.writes).toEqual([]);
  });

  it('tells a server failure that is retried by its code', async () => {
    const { clock, advance } = manualClock();
    const out = screen(false);
    const wait = retryWaiter(out.stream, clock);
    const waiting = wait({
      attempt: 1,
      delayMs: 2_000,
      error: new VerdictError({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'Shutting down' }),
    });
    await advance(2_000);
    await waiting;
    expect(out.writes).toEqual(['verdict: SERVICE_UNAVAILABLE: Shutting down; retrying in 2 s\n']);
  });
});
