// Delivers the outbox, as a queue of the job runner (which claims due deliveries under a lease and
// retries with backoff): a delivery is signed and sent; the outcome is delivered, or retried until
// 24 hours after the event, then failed. An endpoint whose deliveries have all failed for 3 days is
// switched off, and its owner reads why in the delivery log.
import type { Clock } from '../../lib/clock.js';
import type { Decision, JobQueue, TryResult } from '../jobs/job-runner.js';
import type { AttemptRecord, ClaimedDelivery, WebhooksRepository } from '../../storage/repositories/webhooks.js';
import { signatures } from './signing.js';
import type { WebhookResponse, WebhookTransport } from './transport.js';
import { isoOf as iso } from '../time.js';

const HOUR = 3_600_000;
/** After this long since the event, a delivery that still fails is given up. */
export const RETRY_FOR_MS = 24 * HOUR;
/** An endpoint failing this long is switched off. */
export const DISABLE_AFTER_MS = 72 * HOUR;

/**
 * A member's deliveries under way at once, across instances: a member whose receivers are slow
 * (or answer a byte a second until WEBHOOK_TIMEOUT_MS) holds this many of an instance's 20
 * workers, and every other member's deliveries go on.
 */
export const PER_MEMBER = 4;

/** How a request went, as a try of the job runner: a 2xx status confirms a delivery (webhooks and postbacks alike). */
export function tryOf(response: WebhookResponse): TryResult<WebhookResponse> {
  // A 2xx whose answer did not end in time is a failed try too (its error says so).
  const ok = response.error === undefined && response.status !== undefined && response.status >= 200 && response.status < 300;
  if (ok) return { ok, detail: response };
  return { ok, detail: response, error: response.error ?? `the receiver answered ${String(response.status)}; a 2xx status confirms a delivery` };
}

/** The webhook outbox as a queue of the job runner: a delivery is worked by signing and sending its event. */
export class WebhookQueue implements JobQueue<ClaimedDelivery, WebhookResponse> {
  readonly name = 'webhooks';
  readonly retryForMs = RETRY_FOR_MS;
  /** Twice the longest a request may take (WEBHOOK_TIMEOUT_MS, 30 s at most): a try is recorded before another instance may claim it. */
  readonly leaseMs = 60_000;
  readonly batch = 20;

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly transport: WebhookTransport,
    private readonly clock: Clock,
  ) {}

  claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedDelivery[]> {
    return this.webhooks.claimDue(owner, iso(now), iso(leaseUntil), limit, PER_MEMBER);
  }

  history({ delivery, event }: ClaimedDelivery): { attempts: number; since: number } {
    return { attempts: delivery.attempts, since: Date.parse(event.created_at) };
  }

  async work({ event, endpoint }: ClaimedDelivery): Promise<TryResult<WebhookResponse>> {
    const sentAt = this.clock.now();
    const timestamp = Math.floor(sentAt / 1000);
    const secrets = [endpoint.secret];
    if (endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > iso(sentAt)) secrets.push(endpoint.previous_secret);
    const response = await this.transport.send({
      url: endpoint.url,
      body: event.payload,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'affnet-webhooks/1',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatures(secrets, event.id, timestamp, event.payload),
      },
    });
    return tryOf(response);
  }

  record(claimed: ClaimedDelivery, decision: Decision, response: WebhookResponse | undefined): Promise<boolean> {
    return this.webhooks.recordAttempt(claimed.delivery, this.attemptRecord(claimed, decision, response), iso(decision.now));
  }

  /** What a decision means for the delivery, its log and its endpoint. */
  private attemptRecord({ delivery, event, endpoint }: ClaimedDelivery, decision: Decision, response: WebhookResponse | undefined): AttemptRecord {
    const { now, outcome } = decision;
    const log = {
      delivery_id: delivery.id,
      endpoint_id: endpoint.id,
      event_id: event.id,
      event_type: event.type,
      attempt: decision.attempt,
      outcome: outcome === 'done' ? 'delivered' : outcome,
      response_status: response?.status ?? null,
      error: decision.error ?? null,
      failure: response?.failure ?? null,
      duration_ms: response?.durationMs ?? 0,
      created_at: iso(now),
    };
    // The attempt changes the endpoint's health only, never whether it is on: the owner may have
    // paused it while the attempt was under way, and only the network's switch-off below turns it off.
    if (outcome === 'done') return { delivery: { status: 'delivered', next_attempt_at: iso(now) }, log, endpoint: { failing_since: null } };
    const failingSince = endpoint.failing_since ?? iso(now);
    const next = { status: outcome === 'failed' ? 'failed' : 'pending', next_attempt_at: iso(decision.nextAt) };
    if (now - Date.parse(failingSince) < DISABLE_AFTER_MS) return { delivery: next, log, endpoint: { failing_since: failingSince } };
    const reason = `every delivery has failed since ${failingSince}: switched off after 3 days; fix the receiver, then switch the endpoint on again with PATCH {"enabled": true}`;
    return {
      delivery: next,
      log,
      endpoint: { failing_since: failingSince, enabled: 0, disabled_reason: reason },
      disabledLog: { ...log, outcome: 'endpoint_disabled', response_status: null, error: reason, failure: null, duration_ms: 0 },
    };
  }
}
