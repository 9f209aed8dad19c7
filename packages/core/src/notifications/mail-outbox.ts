import type { NotificationType } from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { Mailer, MailMessage } from './mailer.ts';
import type { NotificationTables } from './tables.ts';
import { unsubscribeToken } from './unsubscribe-token.ts';

type Tables = NotificationTables & AccountTables;

export type MailSettings = {
  mailer: Mailer;
  linkSecret: string;
  /** This API's address, for the unsubscribe link. */
  publicBaseUrl: string;
  /** The web app's address, for the link to the debate. */
  appUrl: string;
  now: () => number;
  /** Told of each refused send (the email waits and is tried again). */
  onSendError?: (error: unknown, notificationId: string) => void;
};

/** Tries per email before it is given up (`failed`); the waits between them grow: 30 s, 2 min, 8 min … */
export const MAIL_ATTEMPTS = 5;
const backoffMs = (attempt: number) => 30_000 * 4 ** (attempt - 1);

const PREFERENCE_OF: Record<NotificationType, 'comments' | 'forks'> = { comment: 'comments', fork: 'forks' };

/** One notification's email: plain text (nothing a reader typed is ever rendered as HTML), with its links. */
export function notificationEmail(
  row: { user_id: string; email: string; type: NotificationType; message: string; debate_id: string | null },
  settings: Pick<MailSettings, 'linkSecret' | 'publicBaseUrl' | 'appUrl'>,
): MailMessage {
  const preference = PREFERENCE_OF[row.type];
  const params = new URLSearchParams({
    userId: row.user_id,
    type: preference,
    token: unsubscribeToken(settings.linkSecret, row.user_id, preference),
  });
  const unsubscribeUrl = `${settings.publicBaseUrl}/api/unsubscribe?${params}`;
  const what = row.type === 'comment' ? 'comments' : 'forks';
  const lines = [
    row.message,
    '',
    ...(row.debate_id ? [`See the debate: ${settings.appUrl}/debates/${row.debate_id}`, ''] : []),
    `You receive this because email about ${what} on your debates is on.`,
    `Stop these emails: ${unsubscribeUrl}`,
  ];
  return {
    to: row.email,
    subject: row.message,
    text: lines.join('\n'),
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * One pass of the mailer: claims due emails (`skip locked`, so nodes passing together take different
 * ones), sends each and marks it sent in the same transaction. A crash after sending and before commit sends
 * that email again (at least once). A refused send waits longer each time, and after MAIL_ATTEMPTS is given up.
 * Returns how many emails it handled.
 */
export async function sendDueEmails(db: Database, settings: MailSettings, batch: number): Promise<number> {
  return db.em().transactional(async (em) => {
    const k = query<Tables>(em);
    const now = new Date(settings.now());
    const due = await k
      .selectFrom('notifications as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select(['n.id', 'n.user_id', 'n.type', 'n.message', 'n.debate_id', 'n.email_attempts', 'u.email'])
      .where('n.email_state', '=', 'pending')
      .where((eb) =>
        eb.or([eb('n.email_next_at', 'is', null), eb('n.email_next_at', '<=', now.toISOString())]),
      )
      .orderBy('n.created_at')
      .limit(batch)
      .forUpdate('n')
      .skipLocked()
      .execute();
    for (const row of due) {
      const attempt = row.email_attempts + 1;
      try {
        await settings.mailer.send(notificationEmail(row, settings));
        await k
          .updateTable('notifications')
          .set({ email_state: 'sent', email_attempts: attempt, email_next_at: null })
          .where('id', '=', row.id)
          .execute();
      } catch (error) {
        settings.onSendError?.(error, row.id);
        const givenUp = attempt >= MAIL_ATTEMPTS;
        await k
          .updateTable('notifications')
          .set({
            email_state: givenUp ? 'failed' : 'pending',
            email_attempts: attempt,
            email_next_at: givenUp ? null : new Date(now.getTime() + backoffMs(attempt)),
          })
          .where('id', '=', row.id)
          .execute();
      }
    }
    return due.length;
  });
}

/** Whether any email is waiting; for tests and the mailer's log. */
export const pendingEmails = async (db: Database) =>
  (
    await query<Tables>(db.em())
      .selectFrom('notifications')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('email_state', '=', 'pending')
      .executeTakeFirstOrThrow()
  ).n;
