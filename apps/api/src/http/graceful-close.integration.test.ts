import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startServer } from '../testing/http-harness.ts';

/** A request whose body is still arriving: in flight from the server's point of view. */
async function halfSentLogin(baseUrl: string) {
  const { port } = new URL(baseUrl);
  const socket: Socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password' });
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${body.slice(0, half)}`,
  );
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // Only once the server has read the head is the request in flight (nothing reads it before).
  await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    finish: () => socket.write(body.slice(half)),
    received: () => received,
    ended,
  };
}

/** Resolves `true` if the promise settles within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

describe('closing the server (SIGTERM)', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.core.close();
    harness = undefined;
  });

  it('lets a request in flight finish and answers it before the server is closed', async () => {
    harness = await startServer({ env: { SHUTDOWN_GRACE_MS: '10000' } });
    const request = await halfSentLogin(harness.baseUrl);
    const closed = harness.app.close();
    // The server waits for the request rather than cutting it.
    expect(await settlesWithin(closed, 300)).toBe(false);
    request.finish();
    await closed;
    await request.ended;
    // Answered in the envelope (the sign-in is refused), then the connection closed: nothing cut.
    expect(request.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(request.received()).toContain('"code":"UNAUTHORIZED"');
  });

  it('cuts a request still in flight after SHUTDOWN_GRACE_MS, so a shutdown is bounded whatever a client does', async () => {
    harness = await startServer({ env: { SHUTDOWN_GRACE_MS: '300' } });
    const request = await halfSentLogin(harness.baseUrl);
    const started = Date.now();
    await harness.app.close();
    await request.ended;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(request.received()).toBe('');
  });

  it('closes idle keep-alive connections at once', async () => {
    harness = await startServer({ env: { SHUTDOWN_GRACE_MS: '10000' } });
    // fetch keeps its connection alive after the answer.
    expect((await fetch(`${harness.baseUrl}/v1/health`)).status).toBe(200);
    const started = Date.now();
    await harness.app.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
