// Delivers the outbox. Every instance runs a dispatcher; each round it claims due deliveries with
// a lease (one instance delivers a delivery; a dead instance's lease runs out and another takes
// over), signs and sends them, and records the outcome: delivered; or retried with exponential
// backoff and jitter until 24 hours after the event, then failed. An endpoint whose deliveries
// have all failed for 3 days is switched off, and its owner reads why in the delivery log.
import type { Clock } from '../../lib/clock.js';
import type { AttemptRecord, ClaimedDelivery, WebhooksRepository } from '../../storage/repositories/webhooks.js';
import { signatures } from './signing.js';
import type { WebhookResponse, WebhookTransport } from './transport.js';

const SECOND = 1000;
const HOUR = 3_600_000;
/** After this long since the event, a delivery that still fails is given up. */
export const RETRY_FOR_MS = 24 * HOUR;
/** An endpoint failing this long is switched off. */
export const DISABLE_AFTER_MS = 72 * HOUR;
const FIRST_RETRY_MS = 5 * SECOND;
const LONGEST_RETRY_MS = HOUR;

/**
 * The wait before retry `attempt` (1 after the first failure): 5 s doubling up to an hour, of
 * which a random half or more ("equal jitter"), so receivers coming back are not hit all at once.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt - 1, 20));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export interface DispatcherOptions {
  /** Names this instance in leases. */
  instanceId: string;
  /** How often to look for due deliveries; 0: only when runOnce is called. */
  pollMs: number;
  /** How long a claim holds: longer than a request can take (its timeout is 10 s). */
  leaseMs?: number;
  /** Deliveries claimed, and sent concurrently, per round. */
  batch?: number;
  onError: (error: unknown) => void;
}

/** What an attempt came to: delivered, to be retried, or failed for good. */
type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

export class WebhookDispatcher {
  /** Attempts this instance made, by outcome (for the metrics). */
  readonly attempts: Record<DeliveryOutcome, number> = { delivered: 0, retrying: 0, failed: 0 };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly transport: WebhookTransport,
    private readonly clock: Clock,
    private readonly options: DispatcherOptions,
  ) {}

  start(): void {
    if (this.options.pollMs <= 0) return;
    const tick = () => {
      if (this.stopped) return;
      void this.runOnce()
        .catch(this.options.onError)
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.pollMs).unref();
        });
    };
    this.timer = setTimeout(tick, this.options.pollMs).unref();
  }

  /** Stops looking for work and waits for the round in flight, so nothing is cut off mid-record. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One round: claims what is due, sends it, records it; how many deliveries were attempted. */
  runOnce(): Promise<number> {
    // Rounds never overlap within an instance; a caller arriving mid-round waits for it.
    this.running = (this.running ?? Promise.resolve(0)).catch(() => 0).then(() => this.round());
    return this.running;
  }

  private async round(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.webhooks.claimDue(this.options.instanceId, iso(now), iso(now + (this.options.leaseMs ?? 60 * SECOND)), this.options.batch ?? 20);
    await Promise.all(claimed.map((c) => this.deliver(c)));
    return claimed.length;
  }

  private async deliver(claimed: ClaimedDelivery): Promise<void> {
    const { delivery, event, endpoint } = claimed;
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
    const now = this.clock.now();
    const record = this.outcome(claimed, response, now);
    if (await this.webhooks.recordAttempt(delivery, record, iso(now))) this.attempts[record.log.outcome as DeliveryOutcome]++;
  }

  /** What an answer means for the delivery, its log and its endpoint. */
  private outcome({ delivery, event, endpoint }: ClaimedDelivery, response: WebhookResponse, now: number): AttemptRecord {
    const attempt = delivery.attempts + 1;
    const ok = response.status !== undefined && response.status >= 200 && response.status < 300;
    const expired = now - Date.parse(event.created_at) >= RETRY_FOR_MS;
    const outcome = ok ? 'delivered' : expired ? 'failed' : 'retrying';
    const log = {
      delivery_id: delivery.id,
      endpoint_id: endpoint.id,
      event_id: event.id,
      event_type: event.type,
      attempt,
      outcome,
      response_status: response.status ?? null,
      error: ok ? null : (response.error ?? `the receiver answered ${String(response.status)}; a 2xx status confirms a delivery`),
      duration_ms: response.durationMs,
      created_at: iso(now),
    };
    if (ok) return { delivery: { status: 'delivered', next_attempt_at: iso(now) }, log, endpoint: { failing_since: null, enabled: 1, disabled_reason: null } };
    const failingSince = endpoint.failing_since ?? iso(now);
    const next = { status: expired ? 'failed' : 'pending', next_attempt_at: iso(now + (expired ? 0 : retryDelayMs(attempt))) };
    if (now - Date.parse(failingSince) < DISABLE_AFTER_MS) return { delivery: next, log, endpoint: { failing_since: failingSince, enabled: endpoint.enabled, disabled_reason: endpoint.disabled_reason } };
    const reason = `every delivery has failed since ${failingSince}: switched off after 3 days; fix the receiver, then switch the endpoint on again with PATCH {"enabled": true}`;
    return {
      delivery: next,
      log,
      endpoint: { failing_since: failingSince, enabled: 0, disabled_reason: reason },
      disabledLog: { ...log, outcome: 'endpoint_disabled', response_status: null, error: reason, duration_ms: 0 },
    };
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();
