import { type MailSettings, sendDueEmails } from '@verdict/core';
import { Effect } from 'effect';
import { EngineStorage } from '../services.ts';
import type { BackgroundWorker } from './background-worker.ts';
import { MailUnavailable, passFailure, taggedMailer } from './errors.ts';

/** Emails sent per pass at most: each is claimed, sent with no transaction open, then recorded. */
const BATCH = 50;

/** One pass: sends the notification emails that are due (core's notifications/mail-outbox.ts). */
export const mailPass = (settings: MailSettings) =>
  Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    // Core reports a refused email and tries it later (onSendError); anything of the mailer's that still
    // fails the pass is the mail server's failure, not storage's.
    const tagged = { ...settings, mailer: taggedMailer(settings.mailer) };
    return yield* Effect.tryPromise({
      try: () => sendDueEmails(db, tagged, BATCH),
      catch: passFailure(MailUnavailable),
    });
  });

/** The mailer as a background worker of every engine node, when the service sends email. */
export const mailWorker = (
  settings: MailSettings,
  every: number,
): BackgroundWorker<Effect.Error<ReturnType<typeof mailPass>>, EngineStorage> => ({
  name: 'mail',
  pass: mailPass(settings),
  every,
});
