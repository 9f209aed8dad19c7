import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore, uniqueEmail } from '../testing/index.ts';
import { MAIL_ATTEMPTS, MAIL_CLAIM_MS, sendDueEmails } from './mail-outbox.ts';
import { smtpMailer } from './mailer.ts';

// The mailer talks to a real SMTP server on loopback that answers each message only when the test says so,
// to see what the database looks like while a send is in flight.
describe('the notification mailer', () => {
  let test: TestCore;
  let userId: string;
  let server: SMTPServer;
  let smtpUrl: string;
  /** Each message waits for the next call of `answer`; `refuse` answers it with a 550. */
  const waiting: ((refuse: boolean) => void)[] = [];
  let received = 0;

  beforeAll(async () => {
    test = await createTestCore();
    ({ id: userId } = await test.core.accounts.createUser({
      email: uniqueEmail('mail'),
      name: 'M',
      plan: 'free',
    }));
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          received += 1;
          waiting.push((refuse) =>
            callback(refuse ? Object.assign(new Error('no'), { responseCode: 550 }) : null),
          );
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await test.cleanup();
  });

  const queueEmail = async (message: string) =>
    (
      await test.core.db.execute<{ id: string }>(
        `insert into notifications (user_id, type, message, email_state) values (?, 'comment', ?, 'pending')
         returning id`,
        [userId, message],
      )
    )[0]?.id as string;
  const stateOf = async (id: string) =>
    (
      await test.core.db.execute<{
        email_state: string;
        email_attempts: number;
        email_next_at: string | null;
      }>('select email_state, email_attempts, email_next_at from notifications where id = ?', [id])
    )[0];
  const answer = async (refuse: boolean) => {
    for (let i = 0; i < 200 && waiting.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    waiting.shift()?.(refuse);
  };

  it('holds no lock on an email while its send is in flight, and records the send after it', async () => {
    let nowMs = Date.now();
    const settings = {
      mailer: smtpMailer(smtpUrl, 'Verdict <n@verdict.test>'),
      linkSecret: 'a-link-secret-of-at-least-thirty-two-characters',
      publicBaseUrl: 'http://api.test',
      appUrl: 'http://app.test',
      now: () => nowMs,
    };
    const id = await queueEmail('first');
    const pass = sendDueEmails(test.core.db, settings, 10);
    for (let i = 0; i < 500 && received === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(received).toBe(1);
    // Mid-send the row is free: another transaction locks it without waiting, and sees it claimed.
    const locked = await test.core.db
      .em()
      .transactional((em) =>
        em
          .getConnection()
          .execute(
            'select id from notifications where id = ? for update nowait',
            [id],
            'all',
            em.getTransactionContext(),
          ),
      );
    expect(locked).toHaveLength(1);
    const claimed = await stateOf(id);
    expect(claimed).toMatchObject({ email_state: 'pending', email_attempts: 1 });
    expect(new Date(claimed?.email_next_at ?? 0).getTime()).toBe(nowMs + MAIL_CLAIM_MS);
    // A second pass meanwhile (another node) does not take the claimed email.
    expect(await sendDueEmails(test.core.db, settings, 10)).toBe(0);
    await answer(false);
    expect(await pass).toBe(1);
    expect(await stateOf(id)).toMatchObject({ email_state: 'sent', email_attempts: 1, email_next_at: null });

    // A refused send waits, then is given up after the last attempt.
    const refused = await queueEmail('refused');
    for (let attempt = 1; attempt <= MAIL_ATTEMPTS; attempt++) {
      const next = sendDueEmails(test.core.db, settings, 10);
      await answer(true);
      expect(await next).toBe(1);
      expect(await stateOf(refused)).toMatchObject({
        email_state: attempt < MAIL_ATTEMPTS ? 'pending' : 'failed',
        email_attempts: attempt,
      });
      nowMs += 24 * 3_600_000;
    }
    settings.mailer.close();
  });
});
