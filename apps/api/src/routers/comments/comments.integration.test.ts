import type { Comment, CommentPage, NotificationPage, ShareLink } from '@verdict/contracts';
import { insertStoredDebate } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('comments', () => {
  let h: Harness;
  let owner: TestUser;
  let reader: TestUser;
  let stranger: TestUser;

  const newDebate = (user: TestUser, isPublic = false) =>
    insertStoredDebate(h.core, {
      ownerId: user.session.user.id,
      question: 'Should the library open on Sundays?',
      isPublic,
    });
  const post = (user: TestUser | null, id: string, content: unknown) =>
    h.request<Comment>('POST', `/api/debates/${id}/comments`, { cookie: user?.cookie, body: { content } });
  const list = (user: TestUser | null, id: string, query = '') =>
    h.request<CommentPage>('GET', `/api/debates/${id}/comments${query}`, { cookie: user?.cookie });
  const inbox = (user: TestUser) =>
    h.request<NotificationPage>('GET', '/api/notifications', { cookie: user.cookie });

  beforeAll(async () => {
    h = await startServer();
    owner = await registerUser(h, { name: 'Olive Owner' });
    reader = await registerUser(h, { name: 'Rita Reader' });
    stranger = await registerUser(h, { name: 'Sam Stranger' });
  });
  afterAll(async () => h.close());

  it('the owner comments on a private debate; nobody is notified of their own comment', async () => {
    const id = await newDebate(owner);
    const res = await post(owner, id, '  Notes for later  ');
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      debateId: id,
      authorName: 'Olive Owner',
      mine: true,
      content: 'Notes for later',
    });
    expect((await inbox(owner)).json.notifications.filter((n) => n.debateId === id)).toEqual([]);
  });

  it("others cannot read or write a private debate's comments (403), anonymous readers neither", async () => {
    const id = await newDebate(owner);
    await post(owner, id, 'private note');
    expectError(await post(stranger, id, 'hello'), 'FORBIDDEN');
    expectError(await list(stranger, id), 'FORBIDDEN');
    expectError(await list(null, id), 'FORBIDDEN');
    expectError(await post(null, id, 'hello'), 'UNAUTHORIZED');
  });

  it('on a public debate anyone signed in comments, anyone reads, and the owner is notified', async () => {
    const id = await newDebate(owner, true);
    const res = await post(reader, id, '<script>alert(1)</script> I disagree');
    expect(res.status, res.text).toBe(201);
    const anonymous = await list(null, id);
    expect(anonymous.status, anonymous.text).toBe(200);
    // Stored and answered as the text it is (JSON), never as markup.
    expect(anonymous.json.comments).toEqual([
      expect.objectContaining({
        content: '<script>alert(1)</script> I disagree',
        authorName: 'Rita Reader',
        mine: false,
      }),
    ]);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.stringify(anonymous.json)).not.toContain(reader.session.user.id);
    const notification = (await inbox(owner)).json.notifications.find((n) => n.debateId === id);
    expect(notification).toMatchObject({
      type: 'comment',
      actorId: reader.session.user.id,
      actorName: 'Rita Reader',
      read: false,
    });
    expect(notification?.message).toBe(
      'Rita Reader commented on your debate "Should the library open on Sundays?"',
    );
  });

  it('a private debate shared with allowComments takes comments from signed-in readers', async () => {
    const id = await newDebate(owner);
    await h.request<ShareLink>('POST', `/api/share/${id}`, { cookie: owner.cookie });
    expectError(await post(reader, id, 'before'), 'FORBIDDEN');
    await h.request('PATCH', `/api/share/${id}`, {
      cookie: owner.cookie,
      body: { settings: { allowComments: true } },
    });
    expect((await post(reader, id, 'after')).status).toBe(201);
    expect((await list(reader, id)).json.comments.map((c) => c.content)).toEqual(['after']);
    expectError(await list(null, id), 'FORBIDDEN');
    await h.request('DELETE', `/api/share/${id}`, { cookie: owner.cookie });
    expectError(await post(reader, id, 'revoked'), 'FORBIDDEN');
  });

  it('validates content: 1–2000 visible characters, a string, nothing else in the body', async () => {
    const id = await newDebate(owner, true);
    for (const content of ['', '   ', '\u200b\u200b', 'x'.repeat(2001), 42, null]) {
      expectError(await post(reader, id, content), 'VALIDATION_ERROR');
    }
    expect((await post(reader, id, 'x'.repeat(2000))).status).toBe(201);
    expectError(
      await h.request('POST', `/api/debates/${id}/comments`, {
        cookie: reader.cookie,
        body: { content: 'ok', extra: 1 },
      }),
      'VALIDATION_ERROR',
    );
    expectError(await post(reader, MISSING, 'hello'), 'NOT_FOUND');
    expectError(await post(reader, 'nope', 'hello'), 'VALIDATION_ERROR');
  });

  it('pages oldest first with a cursor', async () => {
    const id = await newDebate(owner, true);
    for (let i = 0; i < 5; i++) {
      await post(reader, id, `comment ${i}`);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const first = await list(null, id, '?limit=2');
    expect(first.json.comments.map((c) => c.content)).toEqual(['comment 0', 'comment 1']);
    const second = await list(null, id, `?limit=2&cursor=${encodeURIComponent(first.json.nextCursor ?? '')}`);
    expect(second.json.comments.map((c) => c.content)).toEqual(['comment 2', 'comment 3']);
    const last = await list(null, id, `?limit=2&cursor=${encodeURIComponent(second.json.nextCursor ?? '')}`);
    expect(last.json).toMatchObject({ nextCursor: null });
    expect(last.json.comments.map((c) => c.content)).toEqual(['comment 4']);
    expectError(await list(null, id, '?limit=0'), 'VALIDATION_ERROR');
    expectError(await list(null, id, '?cursor=yesterday'), 'VALIDATION_ERROR');
    // Cursors at the edges ISO allows and PostgreSQL does not: year 0000, and an offset past 9999.
    const fromTheStart = await list(
      null,
      id,
      `?limit=2&cursor=${encodeURIComponent('0000-01-01T00:00:00Z')}`,
    );
    expect(fromTheStart.json.comments.map((c) => c.content)).toEqual(['comment 0', 'comment 1']);
    const pastTheEnd = await list(null, id, `?cursor=${encodeURIComponent('9999-12-31T23:00:00-05:00')}`);
    expect(pastTheEnd.json.comments).toEqual([]);
  });

  it('its author or the debate owner deletes a comment; anyone else gets 403, a missing one 404', async () => {
    const id = await newDebate(owner, true);
    const byReader = (await post(reader, id, 'mine')).json;
    const another = (await post(reader, id, 'also mine')).json;
    expectError(
      await h.request('DELETE', `/api/debates/${id}/comments/${byReader.id}`, { cookie: stranger.cookie }),
      'FORBIDDEN',
    );
    expect(
      (await h.request('DELETE', `/api/debates/${id}/comments/${byReader.id}`, { cookie: reader.cookie }))
        .status,
    ).toBe(204);
    expect(
      (await h.request('DELETE', `/api/debates/${id}/comments/${another.id}`, { cookie: owner.cookie }))
        .status,
    ).toBe(204);
    expectError(
      await h.request('DELETE', `/api/debates/${id}/comments/${another.id}`, { cookie: owner.cookie }),
      'NOT_FOUND',
    );
    const otherDebate = await newDebate(owner, true);
    const elsewhere = (await post(reader, otherDebate, 'elsewhere')).json;
    expectError(
      await h.request('DELETE', `/api/debates/${id}/comments/${elsewhere.id}`, { cookie: reader.cookie }),
      'NOT_FOUND',
    );
    expect((await list(null, id)).json.comments).toEqual([]);
  });

  it('an author may still delete their comment after the debate went private', async () => {
    const id = await newDebate(owner, true);
    const comment = (await post(reader, id, 'will take back')).json;
    await h.request('PATCH', `/api/debates/${id}/visibility`, {
      cookie: owner.cookie,
      body: { isPublic: false },
    });
    expect(
      (await h.request('DELETE', `/api/debates/${id}/comments/${comment.id}`, { cookie: reader.cookie }))
        .status,
    ).toBe(204);
  });

  it('comments go with a deleted debate: 404 for everyone', async () => {
    const id = await newDebate(owner, true);
    await post(reader, id, 'soon gone');
    await h.request('DELETE', `/api/debates/${id}`, { cookie: owner.cookie });
    expectError(await list(owner, id), 'NOT_FOUND');
    expectError(await post(reader, id, 'too late'), 'NOT_FOUND');
  });
});
