/**
 * The sign-in link a person would click, read from the outbox mailer's .eml files (quoted-printable, as
 * mail clients decode it). Shared by the API plan's HTTP flow and its browser walk-through.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The newest sign-in link mailed to `email` in `outbox`. */
export async function signInLinkFor(outbox: string, email: string): Promise<string> {
  const files = (await readdir(outbox)).filter((f) => f.startsWith('sign-in-'));
  const mails = await Promise.all(
    files.map(async (f) => ({
      text: await readFile(join(outbox, f), 'utf8'),
      at: (await stat(join(outbox, f))).mtimeMs,
    })),
  );
  const mine = mails.filter((m) => m.text.includes(`To: ${email}`)).sort((a, b) => a.at - b.at);
  if (mine.length === 0) throw new Error(`no sign-in mail to ${email} in ${outbox}`);
  const text = mine
    .at(-1)!
    .text.replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const link = /(https?:\/\/\S+\/account\/sign-in\?token=[1-9A-HJ-NP-Za-km-z]+)/.exec(text);
  if (!link) throw new Error(`the newest sign-in mail to ${email} has no sign-in link`);
  return link[1]!;
}
