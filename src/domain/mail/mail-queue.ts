// Sends the mail waiting in the database, as a queue of the job runner (which claims due messages
// under a lease and retries with backoff for 24 hours): a message is rendered, with its one-time
// link made now (the row never holds a live token), and handed to the transport with a Message-ID
// of its own, the same on every try. At least once: a message is sent twice only when its record
// fails after the server accepted it (the instance stopped, or lost its database).
import type { MailRepository } from '../../storage/repositories/mail.js';
import type { MailMessageRow, NewMailMessage } from '../../storage/tables.js';
import type { Decision, JobQueue, TryResult } from '../jobs/job-runner.js';
import { isTemplate, renderMail, type TemplateName, type TemplateValues } from './templates.js';
import type { MailTransport } from './transport.js';
import { isoOf as iso } from '../time.js';

const HOUR = 3_600_000;
/** After this long since it was queued, a message that still cannot be sent is given up. */
export const MAIL_RETRY_FOR_MS = 24 * HOUR;

/**
 * Makes a one-time link at sending: an application's verification link, or a password link for the
 * user with this id (or, without one, this address); undefined when there is nobody to link to.
 */
export type LinkIssuer = (target: { id: string | null; email: string; applicationId: string | null }) => Promise<string | undefined>;

/** A message to queue: its template's values, and the user a one-time link is made for when it is sent. */
export interface MailRequest {
  to: string;
  template: TemplateName;
  locale: string;
  values?: Omit<TemplateValues, 'network' | 'link'>;
  /**
   * A one-time link is made at sending: for this application (its verification link), or for this
   * user (or whoever then has the address `to`), of the kind that suits them then.
   */
  link?: { userId?: string; applicationId?: string };
}

/** The row that queues `request`. */
export function mailRow(request: MailRequest): NewMailMessage {
  return {
    to_address: request.to,
    template: request.template,
    locale: request.locale,
    params: JSON.stringify(request.values ?? {}),
    link_user_id: request.link?.userId ?? null,
    link_application_id: request.link?.applicationId ?? null,
    with_link: request.link ? 1 : 0,
  };
}

type Sending = 'sent' | 'canceled';

export class MailQueue implements JobQueue<MailMessageRow, Sending> {
  readonly name = 'mail';
  readonly retryForMs = MAIL_RETRY_FOR_MS;
  /** Longer than the transport's timeouts can add up to (src/outbound/mail-transport.ts): a try that outlived it could be sent again by another instance. */
  readonly leaseMs = 5 * 60_000;
  readonly batch = 10;
  /** The right side of every Message-ID: the service's own host. */
  private readonly messageIdHost: string;

  constructor(
    private readonly mail: MailRepository,
    private readonly transport: MailTransport,
    private readonly issueLink: LinkIssuer,
    private readonly settings: { from: string; network: string; publicUrl: string },
  ) {
    this.messageIdHost = new URL(settings.publicUrl).hostname;
  }

  claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<MailMessageRow[]> {
    return this.mail.claimDue(owner, iso(now), iso(leaseUntil), limit);
  }

  history(row: MailMessageRow): { attempts: number; since: number } {
    return { attempts: row.attempts, since: Date.parse(row.created_at) };
  }

  async work(row: MailMessageRow): Promise<TryResult<Sending>> {
    if (!isTemplate(row.template)) throw new Error(`no mail template named ${row.template}`);
    let link: string | undefined;
    if (row.with_link) {
      link = await this.issueLink({ id: row.link_user_id, email: row.to_address, applicationId: row.link_application_id });
      // Nobody to send it to: the person was removed meanwhile, the address was never a member's, or the application was decided.
      if (link === undefined) return { ok: true, detail: 'canceled' };
    }
    const values = { ...(JSON.parse(row.params ?? '{}') as TemplateValues), network: this.settings.network, ...(link && { link }) };
    await this.transport.send({ from: this.settings.from, to: row.to_address, messageId: `<${row.id}@${this.messageIdHost}>`, ...renderMail(row.template, row.locale, values) });
    return { ok: true, detail: 'sent' };
  }

  record(row: MailMessageRow, decision: Decision, sending: Sending | undefined): Promise<boolean> {
    const at = iso(decision.now);
    if (decision.outcome === 'done') return this.mail.recordAttempt(row, { status: sending ?? 'sent', next_attempt_at: at, last_error: null, params: null, sent_at: sending === 'sent' ? at : null }, at);
    // A message given up keeps no more of what it said than a sent one.
    const failed = decision.outcome === 'failed';
    return this.mail.recordAttempt(row, { status: failed ? 'failed' : 'pending', next_attempt_at: iso(decision.nextAt), last_error: decision.error ?? null, params: failed ? null : row.params, sent_at: null }, at);
  }
}
