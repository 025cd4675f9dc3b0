import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/** One delivery email. `key` names it in the outbox (the order id), so a resend replaces, not adds. */
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
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
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
      const info = await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
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
