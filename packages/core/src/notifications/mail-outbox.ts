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
 * How long a claimed email is left to the node that claimed it: longer than one send can take (the SMTP
 * timeouts of notifications/mailer.ts), so only a node that died while sending leaves it to another.
 */
export const MAIL_CLAIM_MS = 5 * 60_000;

type DueEmail = {
  id: string;
  user_id: string;
  type: NotificationType;
  message: string;
  debate_id: string | null;
  email: string;
  attempt: number;
};

/**
 * Claims the next due email in a short transaction (`skip locked`, so nodes passing together take different
 * ones): its attempt is counted and it is not due again until the claim runs out. Null when none is due.
 */
async function claimDueEmail(db: Database, now: Date): Promise<DueEmail | null> {
  return db.em().transactional(async (em) => {
    const k = query<Tables>(em);
    const row = await k
      .selectFrom('notifications as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select(['n.id', 'n.user_id', 'n.type', 'n.message', 'n.debate_id', 'n.email_attempts', 'u.email'])
      .where('n.email_state', '=', 'pending')
      .where((eb) =>
        eb.or([eb('n.email_next_at', 'is', null), eb('n.email_next_at', '<=', now.toISOString())]),
      )
      .orderBy('n.created_at')
      .limit(1)
      .forUpdate('n')
      .skipLocked()
      .executeTakeFirst();
    if (!row) return null;
    const attempt = row.email_attempts + 1;
    await k
      .updateTable('notifications')
      .set({ email_attempts: attempt, email_next_at: new Date(now.getTime() + MAIL_CLAIM_MS) })
      .where('id', '=', row.id)
      .execute();
    return { ...row, attempt };
  });
}

/** Stores how a claimed email's send went, unless another node has claimed it since (its claim ran out). */
async function recordSend(db: Database, email: DueEmail, sent: boolean, now: Date) {
  const givenUp = !sent && email.attempt >= MAIL_ATTEMPTS;
  await query<Tables>(db.em())
    .updateTable('notifications')
    .set(
      sent
        ? { email_state: 'sent', email_next_at: null }
        : {
            email_state: givenUp ? 'failed' : 'pending',
            email_next_at: givenUp ? null : new Date(now.getTime() + backoffMs(email.attempt)),
          },
    )
    .where('id', '=', email.id)
    .where('email_state', '=', 'pending')
    .where('email_attempts', '=', email.attempt)
    .execute();
}

/**
 * One pass of the mailer: claims due emails one at a time, sends each with no transaction open (an SMTP
 * server that is slow to answer holds nothing but this pass), then records how it went. A crash after a send
 * and before its record sends that email again once the claim runs out (at least once). A refused send waits
 * longer each time, and after MAIL_ATTEMPTS is given up. Returns how many emails it handled.
 */
export async function sendDueEmails(db: Database, settings: MailSettings, batch: number): Promise<number> {
  let handled = 0;
  while (handled < batch) {
    const email = await claimDueEmail(db, new Date(settings.now()));
    if (email === null) break;
    handled += 1;
    let sent = true;
    try {
      await settings.mailer.send(notificationEmail(email, settings));
    } catch (error) {
      sent = false;
      settings.onSendError?.(error, email.id);
    }
    await recordSend(db, email, sent, new Date(settings.now()));
  }
  return handled;
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
