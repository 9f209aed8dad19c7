export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  headers: Record<string, string>;
};

/** Where notification emails go out; SMTP in production, the same SMTP code against a local server in tests. */
export type Mailer = {
  send: (message: MailMessage) => Promise<void>;
  close: () => void;
};

/** The longest an SMTP server may keep a send waiting at any one step (connect, greeting, each reply). */
export const SMTP_TIMEOUT_MS = 20_000;

/**
 * A mailer over SMTP (`smtp://user:pass@host:port`, or `smtps://` for implicit TLS), through nodemailer.
 * Loaded on first use, so a service without SMTP never loads it.
 */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  let transport: Promise<import('nodemailer').Transporter> | null = null;
  const open = () => {
    transport ??= import('nodemailer').then((nodemailer) =>
      // Bounded, so a send ends well within the claim on its email (MAIL_CLAIM_MS in mail-outbox.ts); the
      // library's own defaults wait up to ten minutes on a silent server.
      nodemailer.createTransport(
        {
          url: smtpUrl,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        },
        { from },
      ),
    );
    return transport;
  };
  return {
    send: async (message) => {
      await (await open()).sendMail({ ...message, from });
    },
    close: () => {
      void transport?.then((t) => t.close());
    },
  };
}
