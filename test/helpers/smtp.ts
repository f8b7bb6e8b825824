// A real SMTP server inside the test process (smtp-server), with a user and password, and what
// arrives at it parsed by mailparser. It can be stopped for a while and started again on the same
// port, as a mail server going away and coming back.
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 'mail server secret';

export interface Mailbox {
  /** SMTP_URL for the service, credentials included. */
  url: string;
  received: ParsedMail[];
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const received: ParsedMail[] = [];
  let port = 0;
  let server: SMTPServer | undefined;
  const start = async () => {
    server = new SMTPServer({
      // Plain SMTP on loopback: no certificate to offer, so no STARTTLS; credentials still required.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) return callback(null, { user: auth.username });
        callback(new Error('wrong credentials'));
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (mail) => {
            received.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      },
      logger: false,
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  };
  await start();
  return {
    url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    start,
  };
}

/** The one link of a message's text that leads to this page of the portal with a token (set-password, verify). */
export function pageLink(mail: ParsedMail, page: string): string {
  const link = new RegExp(`https?://\\S+/app/${page}\\?token=\\w+`).exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no ${page} link in:\n${mail.text}`);
  return link;
}

export const setPasswordLink = (mail: ParsedMail): string => pageLink(mail, 'set-password');
