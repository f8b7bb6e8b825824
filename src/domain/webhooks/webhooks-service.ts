// Webhook endpoints of affiliates and brands: created with a secret shown once, listed, changed
// (an endpoint the network switched off is switched on again with enabled: true), deleted; the
// secret rotated (the previous one stays valid for a day); the delivery log read; a delivery sent
// again.
import type { Clock } from '../../lib/clock.js';
import type { OwnerKind, WebhooksRepository } from '../../storage/repositories/webhooks.js';
import type { WebhookAttemptRow, WebhookEndpointRow } from '../../storage/tables.js';
import { conflict, invalid, notFound } from '../errors.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { randomBase62 } from '../random.js';
import { EVENTS_OF } from './events.js';
import { checkedTargetUrl } from '../urls.js';
import { newSecret } from './signing.js';
import { wordsColumn, wordsOf } from '../../lib/word-columns.js';

/** How long a rotated-out secret still signs deliveries, so receivers can switch without a gap. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 3_600_000;
/** Endpoints per affiliate or brand. */
export const MAX_ENDPOINTS = 20;

export interface Owner {
  kind: OwnerKind;
  id: string;
}

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string;
  enabled?: boolean;
}

export interface Endpoint {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  /** Why the network switched it off; omitted unless it did. */
  disabledReason?: string;
  /** Since when every delivery has failed; omitted while deliveries succeed. */
  failingSince?: string;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttempt {
  deliveryId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  outcome: string;
  responseStatus?: number;
  error?: string;
  /** Why no whole answer came (src/domain/webhooks/transport.ts), for pages to say in the reader's language. */
  failure?: 'refused' | 'timeout' | 'unreachable';
  durationMs: number;
  at: string;
}

export function endpointOf(row: WebhookEndpointRow): Endpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: wordsOf(row.events),
    enabled: row.enabled === 1,
    ...(row.disabled_reason !== null && { disabledReason: row.disabled_reason }),
    ...(row.failing_since !== null && { failingSince: row.failing_since }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function attemptOf(row: WebhookAttemptRow): DeliveryAttempt {
  return {
    deliveryId: row.delivery_id,
    eventId: row.event_id,
    eventType: row.event_type,
    attempt: row.attempt,
    outcome: row.outcome,
    ...(row.response_status !== null && { responseStatus: row.response_status }),
    ...(row.error !== null && { error: row.error }),
    ...(row.failure !== null && { failure: row.failure as NonNullable<DeliveryAttempt['failure']> }),
    durationMs: row.duration_ms,
    at: row.created_at,
  };
}

export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly clock: Clock,
    /** Whether endpoints may be http or local addresses (WEBHOOK_ALLOW_LOCAL_TARGETS). */
    private readonly allowLocalTargets: boolean,
  ) {}

  /** Creates an endpoint; its secret is in the answer and never shown again. */
  async create(owner: Owner, input: EndpointInput): Promise<{ endpoint: Endpoint; secret: string }> {
    const existing = await this.webhooks.listEndpoints(owner.kind, owner.id);
    if (existing.length >= MAX_ENDPOINTS) throw conflict('endpoint_limit', `you have ${existing.length} webhook endpoints, the most allowed; delete one first`);
    const now = this.clock.iso();
    const row: WebhookEndpointRow = {
      id: `whe_${randomBase62(20)}`,
      owner_kind: owner.kind,
      owner_id: owner.id,
      url: this.checkUrl(input.url),
      description: input.description ?? '',
      events: wordsColumn(this.checkEvents(owner.kind, input.events)),
      enabled: input.enabled === false ? 0 : 1,
      disabled_reason: null,
      secret: newSecret(),
      previous_secret: null,
      previous_secret_expires_at: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await this.webhooks.createEndpoint(row);
    return { endpoint: endpointOf(row), secret: row.secret };
  }

  async list(owner: Owner): Promise<Endpoint[]> {
    return (await this.webhooks.listEndpoints(owner.kind, owner.id)).map(endpointOf);
  }

  async get(owner: Owner, id: string): Promise<Endpoint> {
    return endpointOf(await this.endpoint(owner, id));
  }

  /** Changes what is given; switching an endpoint on clears why it was off and its failure run. */
  async update(owner: Owner, id: string, input: Partial<EndpointInput>): Promise<Endpoint> {
    await this.endpoint(owner, id);
    const now = this.clock.iso();
    await this.webhooks.updateEndpoint(owner.kind, owner.id, id, {
      ...(input.url !== undefined && { url: this.checkUrl(input.url) }),
      ...(input.events !== undefined && { events: wordsColumn(this.checkEvents(owner.kind, input.events)) }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.enabled === true && { enabled: 1, disabled_reason: null, failing_since: null }),
      ...(input.enabled === false && { enabled: 0 }),
      updated_at: now,
    });
    return this.get(owner, id);
  }

  async delete(owner: Owner, id: string): Promise<void> {
    if (!(await this.webhooks.deleteEndpoint(owner.kind, owner.id, id))) throw notFound(`webhook endpoint "${id}" not found among yours`, 'webhook_not_found');
  }

  /** A new secret; the previous one keeps signing (beside the new one) for PREVIOUS_SECRET_VALID_MS. */
  async rotateSecret(owner: Owner, id: string): Promise<{ secret: string; previousSecretExpiresAt: string }> {
    const current = await this.endpoint(owner, id);
    const now = this.clock.now();
    const secret = newSecret();
    const previousSecretExpiresAt = new Date(now + PREVIOUS_SECRET_VALID_MS).toISOString();
    await this.webhooks.updateEndpoint(owner.kind, owner.id, id, {
      secret,
      previous_secret: current.secret,
      previous_secret_expires_at: previousSecretExpiresAt,
      updated_at: new Date(now).toISOString(),
    });
    return { secret, previousSecretExpiresAt };
  }

  /** The endpoint's delivery log, newest first. */
  async attempts(owner: Owner, id: string, page: PageRequest): Promise<Paged<DeliveryAttempt>> {
    await this.endpoint(owner, id);
    const { rows, total } = await this.webhooks.listAttempts(id, offsetOf(page));
    return { items: rows.map(attemptOf), total };
  }

  /** Sends a delivery's event to the endpoint again, as a new delivery due now. */
  async redeliver(owner: Owner, id: string, deliveryId: string): Promise<{ deliveryId: string }> {
    await this.endpoint(owner, id);
    const delivery = await this.webhooks.findDelivery(id, deliveryId);
    if (!delivery) throw notFound(`delivery "${deliveryId}" not found for this endpoint`, 'delivery_not_found');
    const again = await this.webhooks.redeliver(delivery, this.clock.iso());
    return { deliveryId: again.id };
  }

  private async endpoint(owner: Owner, id: string): Promise<WebhookEndpointRow> {
    const row = await this.webhooks.findEndpoint(owner.kind, owner.id, id);
    // Another owner's endpoint answers exactly like an unknown one.
    if (!row) throw notFound(`webhook endpoint "${id}" not found among yours`, 'webhook_not_found');
    return row;
  }

  private checkEvents(kind: OwnerKind, events: string[]): string[] {
    const allowed: readonly string[] = EVENTS_OF[kind];
    const unknown = events.filter((e) => !allowed.includes(e));
    if (unknown.length > 0) throw invalid('invalid_events', `unknown event ${unknown.map((e) => `"${e}"`).join(', ')}; ${kind === 'affiliate' ? 'affiliates' : 'brands'} can subscribe to ${allowed.join(', ')}`);
    if (events.length === 0) throw invalid('invalid_events', `events must name at least one of ${allowed.join(', ')}`);
    return [...new Set(events)];
  }

  private checkUrl(text: string): string {
    return checkedTargetUrl(text, { example: 'https://hooks.example.com/affnet', allowLocal: this.allowLocalTargets }).toString();
  }
}
