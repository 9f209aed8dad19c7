import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody, registerUser } from './support/api-client.ts';
import { readSse } from './support/sse.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

// Sharing, collections, votes, polls, comments and notifications over HTTP, through the client generated from
// the served document, in each mode.
describe.each(MODES)('collaboration end to end over HTTP (%s)', (mode) => {
  let stack: Stack;
  let owner: ProUser;
  let reader: ProUser;
  let anonymous: ApiClient;
  let debateId: string;

  beforeAll(async () => {
    stack = await startStack(mode, 'collab');
    [owner, reader] = await Promise.all([signUpPro(stack, 'owner'), signUpPro(stack, 'reader')]);
    anonymous = apiClient(stack.baseUrl);
    const created = expectBody(
      await owner.client.POST('/api/debates', {
        body: { question: 'Should the team adopt trunk-based development?', skipCache: true },
      }),
      201,
    );
    debateId = created.debateId;
    await eventually(
      () => owner.client.GET('/api/debates/{id}', { params: { path: { id: debateId } } }),
      (res) => res.data?.status === 'completed',
      30_000,
    );
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('shares a private debate by link: public read with transcript, settings, rotation, revocation', async () => {
    const path = { debateId };
    const link = expectBody(await owner.client.POST('/api/share/{debateId}', { params: { path } }), 200);
    expect(link.shareUrl).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
    // No APP_URL or PUBLIC_BASE_URL here: the link is on the address the owner's request came to.
    expect(new URL(link.shareUrl).origin).toBe(new URL(stack.baseUrl).origin);
    const settings = expectBody(
      await owner.client.PATCH('/api/share/{debateId}', {
        params: { path },
        body: { settings: { showCost: true } },
      }),
      200,
    );
    expect(settings.settings.showCost).toBe(true);
    const read = expectBody(
      await anonymous.GET('/api/public/debates/{token}', { params: { path: { token: link.token } } }),
      200,
    );
    expect(read.status).toBe('completed');
    expect(read.cost?.credits).toBeGreaterThan(0);
    expect(read.transcript.length).toBeGreaterThan(0);
    expect(JSON.stringify(read)).not.toContain(owner.userId);
    const rotated = expectBody(await owner.client.POST('/api/share/{debateId}', { params: { path } }), 200);
    const stale = await anonymous.GET('/api/public/debates/{token}', {
      params: { path: { token: link.token } },
    });
    expect(stale.response.status).toBe(404);
    expectBody(await owner.client.DELETE('/api/share/{debateId}', { params: { path } }), 200);
    const revoked = await anonymous.GET('/api/public/debates/{token}', {
      params: { path: { token: rotated.token } },
    });
    expect(revoked.response.status).toBe(404);
  });

  it("tells a share link's visitor who is signed in, 200 either way: nobody, the reader, nobody after sign-out", async () => {
    expect(expectBody(await anonymous.GET('/api/auth/state'), 200)).toEqual({ signedIn: false });
    const state = expectBody(await reader.client.GET('/api/auth/state'), 200);
    expect(state.signedIn ? state.user.id : null).toBe(reader.userId);
    const leaving = await registerUser(stack.baseUrl, 'leaving');
    const session = apiClient(stack.baseUrl, { cookie: leaving.cookie });
    expect(expectBody(await session.GET('/api/auth/state'), 200)).toMatchObject({ signedIn: true });
    expect((await session.POST('/api/auth/logout')).response.status).toBe(204);
    expect(expectBody(await session.GET('/api/auth/state'), 200)).toEqual({ signedIn: false });
    // GET /api/auth/session keeps its 401 for the same question.
    expect((await session.GET('/api/auth/session')).response.status).toBe(401);
  });

  it('makes the debate public; others vote on its claims and in its poll, anyone reads the tallies', async () => {
    const visible = expectBody(
      await owner.client.PATCH('/api/debates/{id}/visibility', {
        params: { path: { id: debateId } },
        body: { isPublic: true },
      }),
      200,
    );
    expect(visible.isPublic).toBe(true);
    const link = expectBody(
      await owner.client.POST('/api/share/{debateId}', { params: { path: { debateId } } }),
      200,
    );
    const { transcript } = expectBody(
      await anonymous.GET('/api/public/debates/{token}', { params: { path: { token: link.token } } }),
      200,
    );
    const claimId = transcript[0]?.claimId as string;
    const path = { debateId };
    const cast = expectBody(
      await reader.client.POST('/api/debates/{debateId}/votes', {
        params: { path },
        body: { claimId, vote: 'agree' },
      }),
      200,
    );
    expect(cast).toMatchObject({ claimId, agree: 1, disagree: 0, userVote: 'agree' });
    const tallies = expectBody(
      await anonymous.GET('/api/debates/{debateId}/votes', { params: { path } }),
      200,
    );
    expect(tallies.votes[claimId]).toEqual({ agree: 1, disagree: 0, userVote: null });
    const removed = await reader.client.DELETE('/api/debates/{debateId}/votes/{claimId}', {
      params: { path: { debateId, claimId } },
    });
    expect(removed.response.status).toBe(204);

    const poll = expectBody(
      await owner.client.POST('/api/debates/{debateId}/polls', {
        params: { path },
        body: { question: 'Would you adopt it?', options: ['Yes', 'No'] },
      }),
      201,
    );
    const yes = poll.options[0]?.id as string;
    const voted = expectBody(
      await reader.client.POST('/api/debates/{debateId}/polls/{pollId}/vote', {
        params: { path: { debateId, pollId: poll.id } },
        body: { optionId: yes },
      }),
      200,
    );
    expect(voted).toMatchObject({ totalVotes: 1, userVote: yes });
    const closed = expectBody(
      await owner.client.PATCH('/api/debates/{debateId}/polls/{pollId}', {
        params: { path: { debateId, pollId: poll.id } },
      }),
      200,
    );
    expect(closed.status).toBe('closed');
    const late = await reader.client.POST('/api/debates/{debateId}/polls/{pollId}/vote', {
      params: { path: { debateId, pollId: poll.id } },
      body: { optionId: yes },
    });
    expect(late.response.status).toBe(409);
    const polls = expectBody(await anonymous.GET('/api/debates/{debateId}/polls', { params: { path } }), 200);
    expect(polls.polls[0]?.tallies[yes]).toBe(1);
    const gone = await owner.client.DELETE('/api/debates/{debateId}/polls/{pollId}', {
      params: { path: { debateId, pollId: poll.id } },
    });
    expect(gone.response.status).toBe(204);
  });

  it('curates a collection: create, add, reorder, read publicly, remove, delete', async () => {
    const second = expectBody(
      await owner.client.POST('/api/debates', {
        body: { question: 'Should the team keep its release train every two weeks?', skipCache: true },
      }),
      201,
    );
    const collection = expectBody(
      await owner.client.POST('/api/collections', { body: { name: 'Engineering practice', isPublic: true } }),
      201,
    );
    const id = collection.id;
    for (const item of [debateId, second.debateId]) {
      expectBody(
        await owner.client.POST('/api/collections/{id}/items', {
          params: { path: { id } },
          body: { debateId: item },
        }),
        201,
      );
    }
    expectBody(
      await owner.client.PATCH('/api/collections/{id}/items/reorder', {
        params: { path: { id } },
        body: {
          items: [
            { debateId: second.debateId, order: 0 },
            { debateId, order: 1 },
          ],
        },
      }),
      200,
    );
    expectBody(
      await owner.client.PATCH('/api/collections/{id}', {
        params: { path: { id } },
        body: { description: 'How we ship' },
      }),
      200,
    );
    const listed = expectBody(await owner.client.GET('/api/collections'), 200);
    expect(listed.collections.map((c) => c.id)).toContain(id);
    // Read without credentials: the public collection, with only the public debates in it.
    const read = expectBody(await anonymous.GET('/api/collections/{id}', { params: { path: { id } } }), 200);
    expect(read.description).toBe('How we ship');
    expect(read.items.map((item) => item.debateId)).toEqual([debateId]);
    const removed = await owner.client.DELETE('/api/collections/{id}/items/{debateId}', {
      params: { path: { id, debateId } },
    });
    expect(removed.response.status).toBe(204);
    expect(
      (await owner.client.DELETE('/api/collections/{id}', { params: { path: { id } } })).response.status,
    ).toBe(204);
    expect((await anonymous.GET('/api/collections/{id}', { params: { path: { id } } })).response.status).toBe(
      404,
    );
  });

  it('a comment by someone else reaches the owner: inbox, live stream, read marks, preferences', async () => {
    const stream = readSse(
      `${stack.baseUrl}/api/notifications/stream`,
      { cookie: owner.cookie },
      { stopAfter: 2, timeoutMs: 20_000 },
    );
    // Comment until the stream (subscribed before `connected`) has heard one.
    let done = false;
    void stream.finally(() => {
      done = true;
    });
    while (!done) {
      const posted = await reader.client.POST('/api/debates/{id}/comments', {
        params: { path: { id: debateId } },
        body: { content: 'Trunk-based needs good feature flags first.' },
      });
      expect(posted.response.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const { status, headers, messages } = await stream;
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/event-stream');
    expect(messages.map((m) => m.event)).toEqual(['connected', 'notification']);
    expect(messages[0]?.data).toEqual({ userId: owner.userId });
    expect(messages[1]?.data).toMatchObject({ type: 'comment', debateId, actorId: reader.userId });

    const comments = expectBody(
      await anonymous.GET('/api/debates/{id}/comments', { params: { path: { id: debateId } } }),
      200,
    );
    expect(comments.comments.length).toBeGreaterThan(0);
    const inbox = expectBody(
      await owner.client.GET('/api/notifications', { params: { query: { limit: 50 } } }),
      200,
    );
    expect(inbox.unreadCount).toBe(inbox.notifications.length);
    const first = inbox.notifications[0]?.id as string;
    const marked = expectBody(
      await owner.client.PATCH('/api/notifications/read', { body: { ids: [first] } }),
      200,
    );
    expect(marked.unreadCount).toBe(inbox.unreadCount - 1);
    expectBody(await owner.client.PATCH('/api/notifications/read', { body: { all: true } }), 200);
    expect(expectBody(await owner.client.GET('/api/notifications/unread-count'), 200)).toEqual({
      unreadCount: 0,
    });
    expect(
      expectBody(
        await owner.client.PATCH('/api/notification-preferences', { body: { emailForks: false } }),
        200,
      ),
    ).toEqual({ emailComments: true, emailForks: false });
    expect(expectBody(await owner.client.GET('/api/notification-preferences'), 200).emailForks).toBe(false);
    const own = comments.comments.find((c) => c.content.startsWith('Trunk-based')) ?? comments.comments[0];
    const deleted = await owner.client.DELETE('/api/debates/{id}/comments/{commentId}', {
      params: { path: { id: debateId, commentId: own?.id as string } },
    });
    expect(deleted.response.status).toBe(204);
  });

  it('a fork of the public debate by another user notifies its owner', async () => {
    const fork = await reader.client.POST('/api/debates/{id}/fork', {
      params: { path: { id: debateId } },
      body: {},
    });
    expect(fork.response.status).toBe(201);
    const inbox = expectBody(await owner.client.GET('/api/notifications'), 200);
    expect(inbox.notifications[0]).toMatchObject({
      type: 'fork',
      debateId,
      actorId: reader.userId,
      read: false,
    });
  });
});
