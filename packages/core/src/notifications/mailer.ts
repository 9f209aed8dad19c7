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

/**
 * A mailer over SMTP (`smtp://user:pass@host:port`, or `smtps://` for implicit TLS), through nodemailer.
 * Loaded on first use, so a service without SMTP never loads it.
 */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  let transport: Promise<import('nodemailer').Transporter> | null = null;
  const open = () => {
    transport ??= import('nodemailer').then((nodemailer) => nodemailer.createTransport(smtpUrl, { from }));
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
