import { type MailSettings, sendDueEmails } from '@verdict/core';
import { Effect } from 'effect';
import { EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** Emails claimed per pass: each is an SMTP round trip inside the claiming transaction. */
const BATCH = 50;

/** One pass: sends the notification emails that are due (core's notifications/mail-outbox.ts). */
export const mailPass = (settings: MailSettings) =>
  Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    return yield* Effect.tryPromise({ try: () => sendDueEmails(db, settings, BATCH), catch: storageFailure });
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
