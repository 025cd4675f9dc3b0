import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/**
 * One delivery email. `key` names it in the outbox (the order id, `<id>.v<N>` for a revised pack), so a
 * resend replaces, not adds; it is also the email's Message-ID, so a resend is the same message to the
 * buyer's mail system too.
 */
export interface OutgoingMail {
  key: string;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** For messages: `smtp host:port` or `outbox <dir>`; never credentials. */
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer (`SBM_SMTP_URL`: `smtp://user:pass@host:587`, `smtps://…:465`). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  const parsed = new URL(url);
  return {
    description: `smtp ${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? 465 : 587)}`,
    async send(mail) {
      await transport.sendMail({ ...message(mail, from), from });
    },
    close: () => transport.close(),
  };
}

/** The message as nodemailer takes it, with a Message-ID made of the mail's key and the sender's domain. */
function message(mail: OutgoingMail, from: string) {
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';
  return { to: mail.to, subject: mail.subject, text: mail.text, messageId: `<${mail.key}@${domain}>` };
}

/**
 * Without SMTP: each email as an RFC 5322 `.eml` file under `dir` (`data/outbox/` by default), built
 * by nodemailer exactly as it would be sent, written to a temporary name and renamed into place.
 */
export function outboxMailer(dir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `outbox ${dir}`,
    async send(mail) {
      const info = await transport.sendMail({ ...message(mail, from), from });
      const bytes = info.message as unknown as Buffer;
      await mkdir(dir, { recursive: true });
      const target = join(dir, `${mail.key}.eml`);
      const partial = `${target}.${process.pid}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, target);
    },
    close: () => transport.close(),
  };
}
