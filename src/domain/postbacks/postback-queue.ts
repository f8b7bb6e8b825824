// Sends postbacks, as a queue of the job runner, exactly as the webhook outbox is sent: claimed
// under a lease (one instance sends a delivery), at most PER_MEMBER of an affiliate's under way at
// once, the URL filled in from the template as it is now and requested with GET through the
// webhooks' transport (https, checked and pinned public addresses, no redirects, one deadline); a
// 2xx is delivered, anything else retried with the runner's backoff until RETRY_FOR_MS after the
// event, then failed. A paused template's deliveries wait; a deleted one's are gone.
import type { Decision, JobQueue, TryResult } from '../jobs/job-runner.js';
import type { ClaimedPostback, PostbacksRepository } from '../../storage/repositories/postbacks.js';
import type { WebhookResponse, WebhookTransport } from '../webhooks/transport.js';
import { PER_MEMBER, RETRY_FOR_MS, tryOf } from '../webhooks/webhook-queue.js';
import { isoOf as iso } from '../time.js';
import { checkedTemplate, filledIn, valuesOf } from './templates.js';
import { postbackRequest } from './postbacks-service.js';

/** A try: the URL as sent, and how the tracker answered. */
export type PostbackTry = WebhookResponse & { url: string };

export class PostbackQueue implements JobQueue<ClaimedPostback, PostbackTry> {
  readonly name = 'postbacks';
  readonly retryForMs = RETRY_FOR_MS;
  /** Twice the longest a request may take (WEBHOOK_TIMEOUT_MS, 30 s at most), as webhooks. */
  readonly leaseMs = 60_000;
  readonly batch = 20;

  constructor(
    private readonly postbacks: PostbacksRepository,
    private readonly transport: WebhookTransport,
    private readonly allowLocalTargets: boolean,
  ) {}

  claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedPostback[]> {
    return this.postbacks.claimDue(owner, iso(now), iso(leaseUntil), limit, PER_MEMBER);
  }

  history({ delivery }: ClaimedPostback): { attempts: number; since: number } {
    return { attempts: delivery.attempts, since: Date.parse(delivery.created_at) };
  }

  async work({ delivery, postback }: ClaimedPostback): Promise<TryResult<PostbackTry>> {
    const url = filledIn(checkedTemplate(postback.url, this.allowLocalTargets), valuesOf(delivery.event, delivery.payload));
    const response = await this.transport.send(postbackRequest(url));
    const result = tryOf(response);
    const detail = { ...response, url };
    return result.ok ? { ok: true, detail } : { ok: false, detail, error: result.error };
  }

  record({ delivery }: ClaimedPostback, decision: Decision, detail: PostbackTry | undefined): Promise<boolean> {
    const status = decision.outcome === 'done' ? 'delivered' : decision.outcome === 'failed' ? 'failed' : 'pending';
    return this.postbacks.recordAttempt(
      delivery,
      {
        status,
        next_attempt_at: iso(decision.nextAt),
        url: detail?.url ?? delivery.url,
        response_status: detail?.status ?? null,
        error: decision.error ?? null,
        failure: detail?.failure ?? null,
        duration_ms: detail?.durationMs ?? null,
      },
      iso(decision.now),
    );
  }
}
