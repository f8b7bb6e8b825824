// What the mail queue needs from the outside: hand one message over (to an SMTP server, or to a
// folder on the embedded default). A throw means it was not taken; it is tried again.
export interface OutgoingMail {
  from: string;
  to: string;
  /** Stable across retries, so a message sent twice after a crash is recognisably the same. */
  messageId: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}
