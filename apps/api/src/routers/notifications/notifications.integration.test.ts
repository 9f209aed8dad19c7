import type { AddressInfo } from 'node:net';
import type { Notification, NotificationPage, NotificationPreferences } from '@verdict/contracts';
import { type MailSettings, pendingEmails, sendDueEmails, smtpMailer, unsubscribeToken } from '@verdict/core';
import { eventually, insertStoredDebate, testNatsUrl, uniqueSchema } from '@verdict/core/testing';
import { type EngineNode, engineNodeFor } from '@verdict/engine';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const LINK_SECRET = 'unsubscribe-links-secret-for-tests-0123456789';

/** A public debate of `owner` written directly (the routes under test start from one). */
function publicDebate(h: Harness, owner: TestUser, question = 'Should we adopt a four-day week') {
  return insertStoredDebate(h.core, { ownerId: owner.session.user.id, question, isPublic: true });
}

/** Reads SSE messages off a stream as they come. */
async function openStream(baseUrl: string, user: TestUser, lastEventId?: string) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/notifications/stream`, {
    headers: {
      cookie: `verdict_session=${user.cookie}`,
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
    signal: controller.signal,
  });
  const messages: { id?: string; event: string; data: unknown }[] = [];
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return;
        buffer += decoder.decode(chunk.value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) =>
            block
              .split('\n')
              .find((line) => line.startsWith(`${name}: `))
              ?.slice(name.length + 2);
          const event = field('event');
          if (event) messages.push({ id: field('id'), event, data: JSON.parse(field('data') ?? 'null') });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    res,
    messages,
    /** Everything but the pings. */
    events: () => messages.filter((message) => message.event !== 'ping'),
    close: () => controller.abort(),
  };
}

const comment = (h: Harness, user: TestUser, debateId: string, content = 'A thought') =>
  h.request('POST', `/api/debates/${debateId}/comments`, { cookie: user.cookie, body: { content } });

describe('notifications', () => {
  let h: Harness;
  let owner: TestUser;
  let actor: TestUser;

  beforeAll(async () => {
    h = await startServer({ notificationPingMs: 300 });
    owner = await registerUser(h, { name: 'Nora Owner' });
    actor = await registerUser(h, { name: 'Carl Commenter' });
  });
  afterAll(async () => h.close());

  const inbox = (user: TestUser, query = '') =>
    h.request<NotificationPage>('GET', `/api/notifications${query}`, { cookie: user.cookie });

  it('lists newest first with a cursor, the overall unread count, and marks read by ids or all', async () => {
    const user = await registerUser(h);
    const debate = await publicDebate(h, user);
    for (let i = 0; i < 5; i++) {
      expect((await comment(h, actor, debate, `comment ${i}`)).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const first = await inbox(user, '?limit=2');
    expect(first.status, first.text).toBe(200);
    expect(first.json.unreadCount).toBe(5);
    expect(first.json.notifications).toHaveLength(2);
    const second = await inbox(user, `?limit=2&cursor=${encodeURIComponent(first.json.nextCursor ?? '')}`);
    const third = await inbox(user, `?limit=2&cursor=${encodeURIComponent(second.json.nextCursor ?? '')}`);
    const all = [...first.json.notifications, ...second.json.notifications, ...third.json.notifications];
    expect(new Set(all.map((n) => n.id)).size).toBe(5);
    const times = all.map((n) => n.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(third.json.nextCursor).toBeNull();
    // Cursors at the edges ISO allows and PostgreSQL does not: an offset past 9999, and year 0000.
    const pastTheEnd = await inbox(user, `?cursor=${encodeURIComponent('9999-12-31T23:00:00-05:00')}`);
    expect(pastTheEnd.json.notifications).toHaveLength(5);
    const beforeTheStart = await inbox(user, `?cursor=${encodeURIComponent('0000-01-01T00:00:00Z')}`);
    expect(beforeTheStart.json.notifications).toEqual([]);

    const read = await h.request<{ updated: number; unreadCount: number }>(
      'PATCH',
      '/api/notifications/read',
      {
        cookie: user.cookie,
        body: { ids: [all[0]?.id, all[1]?.id] },
      },
    );
    expect(read.json).toEqual({ updated: 2, unreadCount: 3 });
    expect(
      (await inbox(user)).json.notifications
        .filter((n) => n.read)
        .map((n) => n.id)
        .sort(),
    ).toEqual([all[0]?.id, all[1]?.id].sort());
    // Another user's ids are ignored, not marked.
    const others = await h.request('PATCH', '/api/notifications/read', {
      cookie: actor.cookie,
      body: { ids: [all[2]?.id] },
    });
    expect(others.json).toEqual({ updated: 0, unreadCount: 0 });
    const everything = await h.request('PATCH', '/api/notifications/read', {
      cookie: user.cookie,
      body: { all: true },
    });
    expect(everything.json).toEqual({ updated: 3, unreadCount: 0 });
    expect((await h.request('GET', '/api/notifications/unread-count', { cookie: user.cookie })).json).toEqual(
      {
        unreadCount: 0,
      },
    );
  });

  it('marks only the caller’s own ids: another user’s or an unknown id answers 200 and counts for nothing', async () => {
    const user = await registerUser(h);
    const other = await registerUser(h);
    await comment(h, actor, await publicDebate(h, user), 'for the user');
    await comment(h, actor, await publicDebate(h, other), 'for the other');
    const [mine] = (await inbox(user)).json.notifications;
    const [theirs] = (await inbox(other)).json.notifications;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const markRead = (ids: (string | undefined)[]) =>
      h.request<{ updated: number; unreadCount: number }>('PATCH', '/api/notifications/read', {
        cookie: user.cookie,
        body: { ids },
      });
    // Not revealed: another user's id answers exactly as an unknown one does.
    const foreign = await markRead([theirs?.id]);
    const missing = await markRead([unknown]);
    expect([foreign.status, foreign.json]).toEqual([200, { updated: 0, unreadCount: 1 }]);
    expect([missing.status, missing.json]).toEqual([200, { updated: 0, unreadCount: 1 }]);
    // In a mix, only the caller's own is marked and counted.
    const mixed = await markRead([theirs?.id, mine?.id, unknown]);
    expect([mixed.status, mixed.json]).toEqual([200, { updated: 1, unreadCount: 0 }]);
    expect((await inbox(other)).json).toMatchObject({ unreadCount: 1, notifications: [{ read: false }] });
  });

  it('refuses a bad mark-read body: neither, both, 0 or 101 ids, non-UUIDs, all: false', async () => {
    const ids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());
    for (const body of [
      {},
      { ids: ids(1), all: true },
      { ids: [] },
      { ids: ids(101) },
      { ids: ['x'] },
      { all: false },
    ]) {
      expectError(
        await h.request('PATCH', '/api/notifications/read', { cookie: owner.cookie, body }),
        'VALIDATION_ERROR',
      );
    }
    expect(
      (await h.request('PATCH', '/api/notifications/read', { cookie: owner.cookie, body: { ids: ids(100) } }))
        .status,
    ).toBe(200);
  });

  it('validates list paging and needs credentials everywhere', async () => {
    for (const query of ['?limit=0', '?limit=51', '?cursor=soon'])
      expectError(await inbox(owner, query), 'VALIDATION_ERROR');
    for (const [method, path] of [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread-count'],
      ['PATCH', '/api/notifications/read'],
      ['GET', '/api/notification-preferences'],
      ['PATCH', '/api/notification-preferences'],
      ['GET', '/api/notifications/stream'],
    ] as const) {
      expectError(
        await h.request(method, path, { body: method === 'PATCH' ? { all: true } : undefined }),
        'UNAUTHORIZED',
      );
    }
  });

  it('keeps preferences (both on by default), changing only what is sent', async () => {
    const user = await registerUser(h);
    const prefs = (body?: unknown) =>
      h.request<NotificationPreferences>(body ? 'PATCH' : 'GET', '/api/notification-preferences', {
        cookie: user.cookie,
        body,
      });
    expect((await prefs()).json).toEqual({ emailComments: true, emailForks: true });
    expect((await prefs({ emailForks: false })).json).toEqual({ emailComments: true, emailForks: false });
    expect((await prefs({ emailComments: false })).json).toEqual({ emailComments: false, emailForks: false });
    expect((await prefs()).json).toEqual({ emailComments: false, emailForks: false });
    for (const body of [{ emailForks: 'no' }, { emailComments: 1 }, { push: true }]) {
      expectError(await prefs(body), 'VALIDATION_ERROR');
    }
  });

  it('streams connected, then each new notification, with the spec headers; nothing from before', async () => {
    const user = await registerUser(h);
    const debate = await publicDebate(h, user);
    await comment(h, actor, debate, 'before connecting');
    const stream = await openStream(h.baseUrl, user);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.res.headers.get('cache-control')).toBe('no-cache');
    expect(stream.res.headers.get('x-accel-buffering')).toBe('no');
    await eventually(
      () => stream.events().length,
      (n) => n >= 1,
    );
    expect(stream.events()[0]).toEqual({
      id: undefined,
      event: 'connected',
      data: { userId: user.session.user.id },
    });
    await comment(h, actor, debate, 'after connecting');
    await eventually(
      () => stream.events().length,
      (n) => n >= 2,
    );
    const [, live] = stream.events();
    expect(live?.event).toBe('notification');
    expect(live?.data).toMatchObject({
      type: 'comment',
      actorName: 'Carl Commenter',
      debateId: debate,
      read: false,
    });
    expect(live?.id).toBe((live?.data as Notification | undefined)?.id);
    // Others' notifications never reach this stream. The probe, a notification of this user's made after
    // the other one, arrives after anything published before it: once it is here, the other one would be.
    const elsewhere = await publicDebate(h, owner);
    await comment(h, actor, elsewhere);
    await comment(h, actor, debate, 'the probe');
    await eventually(
      () => stream.events().length,
      (n) => n >= 3,
    );
    const notifications = stream.messages.filter((m) => m.event !== 'ping');
    expect(notifications).toHaveLength(3);
    expect(notifications.map((m) => (m.data as Notification | undefined)?.debateId)).toEqual([
      undefined,
      debate,
      debate,
    ]);
    stream.close();
  });

  /** The user's notifications oldest first, as the stream delivers them. */
  const oldestFirst = async (user: TestUser) => (await inbox(user, '?limit=50')).json.notifications.reverse();
  const notificationIds = (stream: Awaited<ReturnType<typeof openStream>>) =>
    stream.events().flatMap((m) => (m.event === 'notification' ? [m.id] : []));

  it('replays the notifications missed since Last-Event-ID once, oldest first, then follows live ones', async () => {
    const user = await registerUser(h);
    const debate = await publicDebate(h, user);
    const first = await openStream(h.baseUrl, user);
    await eventually(
      () => first.events().length,
      (n) => n >= 1,
    );
    await comment(h, actor, debate, 'seen live');
    await eventually(
      () => notificationIds(first).length,
      (n) => n >= 1,
    );
    const [seen] = notificationIds(first);
    first.close();

    for (const content of ['missed one', 'missed two', 'missed three'])
      await comment(h, actor, debate, content);
    const again = await openStream(h.baseUrl, user, seen);
    expect(again.res.status).toBe(200);
    await eventually(
      () => notificationIds(again).length,
      (n) => n >= 3,
    );
    await comment(h, actor, debate, 'live after the replay');
    // And a probe after it: a replayed notification sent twice would reach the stream before the probe.
    await comment(h, actor, debate, 'the probe');
    await eventually(
      () => notificationIds(again).length,
      (n) => n >= 5,
    );

    const stored = await oldestFirst(user);
    expect(stored).toHaveLength(6);
    expect(stored[0]?.id).toBe(seen);
    expect(again.events()[0]).toMatchObject({ event: 'connected' });
    expect(notificationIds(again)).toEqual(stored.slice(1).map((n) => n.id));
    const replayed = again.events().filter((m) => m.event === 'notification');
    expect(replayed.map((m) => m.data)).toEqual(stored.slice(1));
    again.close();
  });

  it('replays every notification created while reconnecting exactly once, in order, however they interleave', async () => {
    const user = await registerUser(h);
    const debate = await publicDebate(h, user);
    const commenters = [actor, ...(await Promise.all([registerUser(h), registerUser(h)]))];
    await comment(h, actor, debate, 'the last one seen');
    const [seen] = (await inbox(user)).json.notifications;
    // Ten comments from three people at once, and the reconnect in the middle of them.
    const burst = Array.from({ length: 10 }, (_, i) =>
      comment(h, commenters[i % 3] as TestUser, debate, `burst ${i}`),
    );
    const reconnecting = openStream(h.baseUrl, user, seen?.id);
    const [again] = await Promise.all([reconnecting, ...burst]);
    await eventually(
      () => notificationIds(again).length,
      (n) => n >= 10,
      5000,
    );
    // A probe made after the burst: anything of the burst sent twice would reach the stream before it.
    await comment(h, actor, debate, 'the probe');
    await eventually(
      () => notificationIds(again).length,
      (n) => n >= 11,
    );
    const stored = await oldestFirst(user);
    expect(stored).toHaveLength(12);
    // Stored in the order they were committed, each createdAt after the one before.
    const times = stored.map((n) => new Date(n.createdAt).getTime());
    expect(
      times.every((t, i) => i === 0 || t > (times[i - 1] as number)),
      times.join(' '),
    ).toBe(true);
    expect(notificationIds(again)).toEqual(stored.slice(1).map((n) => n.id));
    again.close();
  });

  it('replays nothing for a Last-Event-ID that is not one of the caller’s notifications, and refuses one that is no id', async () => {
    const user = await registerUser(h);
    const other = await registerUser(h);
    const mine = await publicDebate(h, user);
    const theirs = await publicDebate(h, other);
    await comment(h, actor, mine, 'before connecting');
    await comment(h, actor, theirs, 'someone else’s');
    const [foreign] = (await inbox(other)).json.notifications;
    for (const id of [foreign?.id, '00000000-0000-4000-8000-000000000000']) {
      const stream = await openStream(h.baseUrl, user, id);
      expect(stream.res.status).toBe(200);
      await eventually(
        () => stream.events().length,
        (n) => n >= 1,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(stream.events().map((m) => m.event)).toEqual(['connected']);
      stream.close();
    }
    const malformed = await fetch(`${h.baseUrl}/api/notifications/stream`, {
      headers: { cookie: `verdict_session=${user.cookie}`, 'last-event-id': 'not-an-id' },
    });
    const error = expectError(
      { status: malformed.status, headers: malformed.headers, text: '', json: await malformed.json() },
      'VALIDATION_ERROR',
    );
    expect(error.details?.map((d) => d.path)).toEqual(['Last-Event-ID']);
  });

  it('pings every interval with an empty string and no id', async () => {
    const user = await registerUser(h);
    const stream = await openStream(h.baseUrl, user);
    await eventually(
      () => stream.messages.filter((m) => m.event === 'ping').length,
      (n) => n >= 2,
    );
    for (const ping of stream.messages.filter((m) => m.event === 'ping')) {
      expect(ping).toEqual({ id: undefined, event: 'ping', data: '' });
    }
    stream.close();
  });

  it('counts opens against the stream budget, not the request budget, and says so in its headers', async () => {
    const user = await registerUser(h, { rateLimit: 'plan' });
    const stream = await openStream(h.baseUrl, user);
    expect(stream.res.headers.get('x-ratelimit-limit')).toBe(
      String(h.core.config.rateLimits.streamOpensPerMinute),
    );
    stream.close();
  });
});

describe('the notification stream across API processes', () => {
  let first: Harness;
  let second: Harness;

  beforeAll(async () => {
    const shared = {
      DATABASE_SCHEMA: uniqueSchema(),
      NATS_URL: testNatsUrl(),
      NATS_PREFIX: `${uniqueSchema('n')}.`,
    };
    first = await startServer({ env: shared });
    second = await startServer({ env: shared });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    await first.core.db.execute(`drop schema if exists "${first.schema}" cascade`).catch(() => {});
  });

  it('a notification created by a second process arrives on a stream held by the first', async () => {
    const owner = await registerUser(first);
    const actor = await registerUser(second, { name: 'Remote Commenter' });
    const debate = await publicDebate(first, owner);
    const stream = await openStream(first.baseUrl, owner);
    await eventually(
      () => stream.messages.length,
      (n) => n >= 1,
    );
    const posted = await comment(second, actor, debate, 'from the other process');
    expect(posted.status, posted.text).toBe(201);
    await eventually(
      () => stream.messages.length,
      (n) => n >= 2,
      5000,
    );
    expect(stream.messages[1]).toMatchObject({
      event: 'notification',
      data: { type: 'comment', actorName: 'Remote Commenter', debateId: debate },
    });
    stream.close();
  });
});

describe('notification email', () => {
  let h: Harness;
  let smtp: SMTPServer;
  let engine: EngineNode;
  const mails: ParsedMail[] = [];
  let refuse = false;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        if (refuse) {
          stream.resume();
          return callback(new Error('mailbox unavailable'));
        }
        simpleParser(stream).then((mail) => {
          mails.push(mail);
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    h = await startServer({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        EMAIL_LINK_SECRET: LINK_SECRET,
        EMAIL_FROM: 'Verdict <notify@verdict.test>',
        ENGINE_MAIL_INTERVAL_MS: '100',
      },
    });
    engine = engineNodeFor(h.core);
    engine.start();
  });
  afterAll(async () => {
    await engine.stop();
    await h.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('emails a comment notification with a working unsubscribe link, and stops once unsubscribed', async () => {
    const owner = await registerUser(h, { name: 'Mail Owner' });
    const actor = await registerUser(h, { name: 'Mail Actor' });
    const debate = await publicDebate(h, owner, 'Should we ship on Fridays');
    await comment(h, actor, debate);
    const mail = await eventually(
      () => mails.find((m) => m.to && JSON.stringify(m.to).includes(owner.email)),
      (m) => m !== undefined,
    );
    expect(mail?.subject).toBe('Mail Actor commented on your debate "Should we ship on Fridays"');
    expect(mail?.from?.value).toEqual([{ name: 'Verdict', address: 'notify@verdict.test' }]);
    expect(mail?.text).toContain(`${h.core.config.appUrl}/debates/${debate}`);
    const link = /Stop these emails: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
    const url = new URL(link);
    expect(url.pathname).toBe('/api/unsubscribe');
    expect(url.searchParams.get('token')).toBe(
      unsubscribeToken(LINK_SECRET, owner.session.user.id, 'comments'),
    );
    const listUnsubscribe = mail?.headerLines.find((line) => line.key === 'list-unsubscribe')?.line ?? '';
    expect(listUnsubscribe.replace(/\s+/g, '')).toContain(url.searchParams.get('token') ?? 'missing');

    const page = await h.request('GET', `${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('You are unsubscribed');
    const prefs = await h.request('GET', '/api/notification-preferences', { cookie: owner.cookie });
    expect(prefs.json).toEqual({ emailComments: false, emailForks: true });

    const before = mails.length;
    await comment(h, actor, debate, 'no email for this one');
    const [row] = await h.core.db.execute<{ email_state: string }>(
      `select email_state from notifications where user_id = ? order by created_at desc limit 1`,
      [owner.session.user.id],
    );
    expect(row?.email_state).toBe('none');
    // The probe: a notification made after it for someone who takes emails. Once the mailer has sent that
    // one, it has passed over the owner's.
    const probeDebate = await publicDebate(h, actor, 'Should the probe get an email');
    await comment(h, owner, probeDebate, 'the probe');
    await eventually(
      () => mails.slice(before).find((m) => JSON.stringify(m.to).includes(actor.email)),
      (m) => m !== undefined,
    );
    expect(mails.slice(before).map((m) => JSON.stringify(m.to))).toEqual([
      expect.stringContaining(actor.email),
    ]);
  });

  it('answers 400 HTML for a forged, altered or incomplete unsubscribe link', async () => {
    const user = await registerUser(h);
    const good = unsubscribeToken(LINK_SECRET, user.session.user.id, 'forks');
    const forged = unsubscribeToken(
      'another-secret-another-secret-another-secret',
      user.session.user.id,
      'forks',
    );
    for (const query of [
      `userId=${user.session.user.id}&type=forks&token=${forged}`,
      `userId=${user.session.user.id}&type=comments&token=${good}`,
      `userId=${user.session.user.id}&type=forks&token=${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`,
      `userId=${user.session.user.id}&type=forks`,
      `userId=not-a-uuid&type=forks&token=${good}`,
      `userId=${user.session.user.id}&type=likes&token=${good}`,
    ]) {
      const res = await h.request('GET', `/api/unsubscribe?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).not.toContain(user.session.user.id);
    }
    const prefs = await h.request('GET', '/api/notification-preferences', { cookie: user.cookie });
    expect(prefs.json).toEqual({ emailComments: true, emailForks: true });
    const res = await h.request(
      'GET',
      `/api/unsubscribe?userId=${user.session.user.id}&type=forks&token=${good}`,
    );
    expect(res.status).toBe(200);
  });

  it('a refused send stays pending with a back-off, and is sent on a later try', async () => {
    await engine.stop();
    const owner = await registerUser(h);
    const actor = await registerUser(h);
    const debate = await publicDebate(h, owner);
    await comment(h, actor, debate);
    expect(await pendingEmails(h.core.db)).toBe(1);
    const settings = {
      mailer: smtpMailer(h.core.config.email.smtpUrl ?? '', 'x <x@verdict.test>'),
      linkSecret: LINK_SECRET,
      publicBaseUrl: h.core.config.publicBaseUrl,
      appUrl: h.core.config.appUrl,
      now: () => Date.now(),
    } satisfies MailSettings;
    refuse = true;
    expect(await sendDueEmails(h.core.db, settings, 10)).toBe(1);
    const [row] = await h.core.db.execute<{
      email_state: string;
      email_attempts: number;
      email_next_at: string;
    }>(`select email_state, email_attempts, email_next_at from notifications where user_id = ?`, [
      owner.session.user.id,
    ]);
    expect(row).toMatchObject({ email_state: 'pending', email_attempts: 1 });
    expect(new Date(row?.email_next_at ?? 0).getTime()).toBeGreaterThan(Date.now() + 20_000);
    // Not due yet: nothing is tried.
    expect(await sendDueEmails(h.core.db, settings, 10)).toBe(0);
    refuse = false;
    const later = { ...settings, now: () => Date.now() + 60_000 };
    expect(await sendDueEmails(h.core.db, later, 10)).toBe(1);
    expect(await pendingEmails(h.core.db)).toBe(0);
    engine = engineNodeFor(h.core);
    engine.start();
  });
});
