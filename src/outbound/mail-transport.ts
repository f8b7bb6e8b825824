// Mail leaves through nodemailer: to the SMTP server of SMTP_URL, or, on the embedded default
// without one, as an .eml file per message in MAIL_OUTBOX_DIR (named by the time it was written and
// its id, so the folder reads in order), readable by the service's user only.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { MailTransport, OutgoingMail } from '../domain/mail/transport.js';

/**
 * nodemailer (430 KB) is loaded with the first message, not at every start: most starts send none
 * for a while, and the redirects do not wait for it.
 */
const loadNodemailer = async () => (await import('nodemailer')).default;

/** A transporter made on first use and kept; closing before any use closes nothing. */
function lazyTransporter(make: (nodemailer: Awaited<ReturnType<typeof loadNodemailer>>) => Transporter) {
  let made: Promise<Transporter> | undefined;
  return {
    get: () => (made ??= loadNodemailer().then(make)),
    close: () => void made?.then((transporter) => transporter.close()),
  };
}

/**
 * Short enough that a try ends within the mail queue's five-minute lease: the name lookup, the
 * connection and the greeting, then at most 30 s of silence for each of the half-dozen commands.
 */
const TIMEOUTS = { dnsTimeout: 10_000, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function smtpMailTransport(url: string): MailTransport {
  const transporter = lazyTransporter((nodemailer) => nodemailer.createTransport({ url, ...TIMEOUTS }));
  return {
    async send(mail) {
      await (await transporter.get()).sendMail(message(mail));
    },
    close: transporter.close,
  };
}

/** `written` is told each file's path (never what it says: its links sign people in). */
export function outboxMailTransport(dir: string, written: (path: string) => void): MailTransport {
  const composer = lazyTransporter((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    async send(mail) {
      const { message: raw } = (await (await composer.get()).sendMail(message(mail))) as { message: Buffer };
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const id = mail.messageId.replace(/^<|@.*$/g, '');
      const path = join(dir, `${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${id}.eml`);
      await writeFile(path, raw, { mode: 0o600 });
      written(path);
    },
    close: composer.close,
  };
}

const message = (mail: OutgoingMail) => ({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId: mail.messageId });
