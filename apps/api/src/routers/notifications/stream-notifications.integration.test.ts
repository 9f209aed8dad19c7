import type { TRPCClientError } from '@trpc/client';
import type { Notification, NotificationPage } from '@verdict/contracts';
import { eventually, insertStoredDebate } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../router.ts';
import { type Harness, registerUser, startServer, type TestUser } from '../../testing/http-harness.ts';
import { type ClientCredentials, subscribingClient } from '../../testing/trpc-subscriptions.ts';

/** notifications.stream held open: what it got (id and notification), and how it ended if it did. */
function follow(baseUrl: string, credentials: ClientCredentials, input: { lastEventId?: string } = {}) {
  const received: { id: string; data: Notification }[] = [];
  let started!: () => void;
  const onStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  let failed!: (error: TRPCClientError<AppRouter>) => void;
  const error = new Promise<TRPCClientError<AppRouter>>((resolve) => {
    failed = resolve;
  });
  let starts = 0;
  const subscription = subscribingClient<AppRouter>(baseUrl, credentials).notifications.stream.subscribe(
    input,
    {
      onStarted: () => {
        starts++;
        started();
      },
      onData: (event) => received.push(event),
      onError: (err) => failed(err),
    },
  );
  return {
    received,
    ids: () => received.map((event) => event.id),
    /** How many times a connection opened (tRPC's `connected`): 2 after one reconnect. */
    starts: () => starts,
    started: onStarted,
    error,
    stop: () => subscription.unsubscribe(),
  };
}

describe('notifications.stream, the tRPC subscription of the caller’s notifications', () => {
  let h: Harness;
  let actor: TestUser;

  const comment = (debateId: string, content: string) =>
    h.request('POST', `/api/debates/${debateId}/comments`, { cookie: actor.cookie, body: { content } });
  /** The user's notifications as stored, oldest first. */
  const oldestFirst = async (user: TestUser) =>
    (
      await h.request<NotificationPage>('GET', '/api/notifications?limit=50', { cookie: user.cookie })
    ).json.notifications
      .slice()
      .reverse();
  const publicDebateOf = (user: TestUser) =>
    insertStoredDebate(h.core, {
      ownerId: user.session.user.id,
      question: 'Who will comment?',
      isPublic: true,
    });

  beforeAll(async () => {
    h = await startServer();
    actor = await registerUser(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('sends each new notification tracked with its id, none from before it subscribed', async () => {
    const user = await registerUser(h);
    const debate = await publicDebateOf(user);
    expect((await comment(debate, 'before')).status).toBe(201);
    const stream = follow(h.baseUrl, { cookie: user.cookie });
    await stream.started;
    await comment(debate, 'first after');
    await comment(debate, 'second after');
    await eventually(stream.ids, (ids) => ids.length >= 2);
    const stored = await oldestFirst(user);
    expect(stored).toHaveLength(3);
    expect(stream.received).toEqual(stored.slice(1).map((n) => ({ id: n.id, data: n })));
    stream.stop();
  });

  it('resumes after its connection is cut with every notification once, in order, those made meanwhile first', async () => {
    const user = await registerUser(h);
    const debate = await publicDebateOf(user);
    const stream = follow(h.baseUrl, { cookie: user.cookie });
    await stream.started;
    await comment(debate, 'seen live');
    await eventually(stream.ids, (ids) => ids.length === 1);
    // Cut under the client, as a proxy or the network would; EventSource reconnects in about 3 s.
    h.app.server.closeAllConnections();
    for (const content of ['missed one', 'missed two', 'missed three']) await comment(debate, content);
    await eventually(stream.starts, (n) => n === 2, 10_000);
    await comment(debate, 'live after the resume');
    await eventually(stream.ids, (ids) => ids.length >= 5);
    const stored = await oldestFirst(user);
    expect(stored).toHaveLength(5);
    expect(stream.ids()).toEqual(stored.map((n) => n.id));
    stream.stop();
  }, 20_000);

  it('starts after the lastEventId it is given, and refuses one that is no notification id', async () => {
    const user = await registerUser(h);
    const debate = await publicDebateOf(user);
    for (const content of ['one', 'two', 'three']) await comment(debate, content);
    const [first, ...rest] = await oldestFirst(user);
    const stream = follow(h.baseUrl, { cookie: user.cookie }, { lastEventId: first?.id.toUpperCase() });
    await eventually(stream.ids, (ids) => ids.length >= 2);
    expect(stream.ids()).toEqual(rest.map((n) => n.id));
    stream.stop();

    const refused = await follow(h.baseUrl, { cookie: user.cookie }, { lastEventId: '42' }).error;
    expect(refused.data).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ path: 'lastEventId' })],
    });
  });

  it('refuses a caller without credentials with UNAUTHORIZED', async () => {
    expect((await follow(h.baseUrl, {}).error).data).toMatchObject({
      appCode: 'UNAUTHORIZED',
      httpStatus: 401,
    });
  });
});
