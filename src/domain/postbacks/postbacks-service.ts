// Affiliates' postbacks: URL templates of their trackers (Voluum, RedTrack, Binom, Keitaro), each
// under an id the affiliate chooses, put (created or replaced), listed, read and deleted; the
// delivery log of each; and a test, sent at once with example values, answering what the tracker
// answered. The deliveries themselves are written with the change that caused them (the outbox)
// and sent by the job runner (postback-queue.ts).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import { POSTBACK_EVENTS, type PostbackEvent } from '../../lib/postback-events.js';
import type { PostbacksRepository } from '../../storage/repositories/postbacks.js';
import type { AffiliatePostbackRow, PostbackDeliveryRow } from '../../storage/tables.js';
import { conflict, invalid, notFound } from '../errors.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import type { WebhookTransport } from '../webhooks/transport.js';
import { tryOf } from '../webhooks/webhook-queue.js';
import { wordsColumn, wordsOf } from '../../lib/word-columns.js';
import { checkedTemplate, examplePayload, filledIn, valuesOf } from './templates.js';

/** Templates per affiliate. */
export const MAX_POSTBACKS = 10;
/** Brands one template may be limited to (the schema's bound). */
export const MAX_BRANDS = 50;
/** What an id the affiliate chooses looks like: 1 to 64 letters, digits, - and _, beginning with a letter or digit. */
export const POSTBACK_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';

export interface PostbackInput {
  url: string;
  events: PostbackEvent[];
  brandIds?: string[] | undefined;
  active?: boolean | undefined;
}

export interface Postback {
  id: string;
  url: string;
  events: PostbackEvent[];
  /** Omitted: every brand. */
  brandIds?: string[];
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface PostbackDelivery {
  id: string;
  event: string;
  test: boolean;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  url?: string;
  responseStatus?: number;
  error?: string;
  failure?: 'refused' | 'timeout' | 'unreachable';
  durationMs?: number;
  at: string;
  lastAttemptAt?: string;
  nextAttemptAt?: string;
}

export interface PostbackTest {
  delivery: PostbackDelivery;
  /** The beginning of what the tracker answered, when it answered anything. */
  answer?: string;
}

export function postbackOf(row: AffiliatePostbackRow): Postback {
  return {
    id: row.id,
    url: row.url,
    events: wordsOf(row.events) as PostbackEvent[],
    ...(row.brand_ids !== null && { brandIds: wordsOf(row.brand_ids) }),
    active: row.active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function deliveryOf(row: PostbackDeliveryRow): PostbackDelivery {
  return {
    id: row.id,
    event: row.event,
    test: row.test === 1,
    status: row.status as PostbackDelivery['status'],
    attempts: row.attempts,
    ...(row.url !== null && { url: row.url }),
    ...(row.response_status !== null && { responseStatus: row.response_status }),
    ...(row.error !== null && { error: row.error }),
    ...(row.failure !== null && { failure: row.failure as NonNullable<PostbackDelivery['failure']> }),
    ...(row.duration_ms !== null && { durationMs: row.duration_ms }),
    at: row.created_at,
    ...(row.last_attempt_at !== null && { lastAttemptAt: row.last_attempt_at }),
    ...(row.status === 'pending' && { nextAttemptAt: row.next_attempt_at }),
  };
}

/** The request a postback is: a GET of the filled-in URL. */
export const postbackRequest = (url: string) => ({ method: 'GET' as const, url, headers: { accept: '*/*', 'user-agent': 'affnet-postbacks/1' } });

export class PostbacksService {
  constructor(
    private readonly repositories: { postbacks: PostbacksRepository },
    private readonly transport: WebhookTransport,
    private readonly clock: Clock,
    /** Whether templates may be http or local addresses (WEBHOOK_ALLOW_LOCAL_TARGETS). */
    private readonly allowLocalTargets: boolean,
  ) {}

  /** Creates the affiliate's template with this id, or replaces it; whether it was created. */
  async put(affiliateId: string, id: string, input: PostbackInput): Promise<{ created: boolean; postback: Postback }> {
    checkedTemplate(input.url, this.allowLocalTargets);
    const events = [...new Set(input.events)];
    if (events.length === 0) throw invalid('invalid_events', `events must name at least one of ${POSTBACK_EVENTS.join(', ')}`);
    const brandIds = input.brandIds === undefined ? undefined : [...new Set(input.brandIds)];
    if (brandIds !== undefined) await this.checkBrands(affiliateId, brandIds);
    const existing = await this.repositories.postbacks.find(affiliateId, id);
    if (!existing) {
      const count = (await this.repositories.postbacks.list(affiliateId)).length;
      if (count >= MAX_POSTBACKS) throw conflict('postback_limit', `you have ${count} postbacks, the most allowed; delete one first`, { limit: MAX_POSTBACKS });
    }
    const now = this.clock.iso();
    const row: AffiliatePostbackRow = {
      affiliate_id: affiliateId,
      id,
      url: input.url,
      events: wordsColumn(events),
      brand_ids: brandIds === undefined ? null : wordsColumn(brandIds),
      active: input.active === false ? 0 : 1,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    const created = await this.repositories.postbacks.save(row);
    return { created, postback: postbackOf(row) };
  }

  async list(affiliateId: string): Promise<Postback[]> {
    return (await this.repositories.postbacks.list(affiliateId)).map(postbackOf);
  }

  async get(affiliateId: string, id: string): Promise<Postback> {
    return postbackOf(await this.postback(affiliateId, id));
  }

  async delete(affiliateId: string, id: string): Promise<void> {
    if (!(await this.repositories.postbacks.delete(affiliateId, id))) throw notFound(`postback "${id}" not found among yours`, 'postback_not_found');
  }

  /** The template's delivery log, newest first. */
  async deliveries(affiliateId: string, id: string, page: PageRequest): Promise<Paged<PostbackDelivery>> {
    await this.postback(affiliateId, id);
    const { rows, total } = await this.repositories.postbacks.listDeliveries(affiliateId, id, offsetOf(page));
    return { items: rows.map(deliveryOf), total };
  }

  /**
   * Sends the template now with example values (every macro filled in, each saying it is a test),
   * for `event` (the template's first by default), paused or not; records it in the log and
   * answers what the tracker answered. Not retried.
   */
  async test(affiliateId: string, id: string, event?: PostbackEvent): Promise<PostbackTest> {
    const postback = postbackOf(await this.postback(affiliateId, id));
    const chosen = event ?? postback.events[0]!;
    const now = this.clock.iso();
    const payload = examplePayload(chosen, now, postback.brandIds?.[0]);
    const url = filledIn(checkedTemplate(postback.url, this.allowLocalTargets), valuesOf(chosen, payload));
    const response = await this.transport.send(postbackRequest(url));
    const result = tryOf(response);
    const at = this.clock.iso();
    const row: PostbackDeliveryRow = {
      id: randomUUID(),
      affiliate_id: affiliateId,
      postback_id: id,
      event: chosen,
      event_key: `test:${randomUUID()}`,
      payload,
      test: 1,
      status: result.ok ? 'delivered' : 'failed',
      attempts: 1,
      url,
      response_status: response.status ?? null,
      error: result.ok ? null : result.error,
      failure: response.failure ?? null,
      duration_ms: response.durationMs,
      next_attempt_at: at,
      lease_owner: null,
      lease_until: null,
      last_attempt_at: at,
      created_at: now,
      updated_at: at,
    };
    await this.repositories.postbacks.insertDelivery(row);
    return { delivery: deliveryOf(row), ...(response.answer !== undefined && { answer: response.answer }) };
  }

  private async postback(affiliateId: string, id: string): Promise<AffiliatePostbackRow> {
    const row = await this.repositories.postbacks.find(affiliateId, id);
    // Another affiliate's template answers exactly like an unknown one.
    if (!row) throw notFound(`postback "${id}" not found among yours`, 'postback_not_found');
    return row;
  }

  /** Brands the affiliate may promote now, or has orders of: any other id is refused, whether it names a brand or not. */
  private async checkBrands(affiliateId: string, brandIds: string[]): Promise<void> {
    const known = await this.repositories.postbacks.brandsOf(affiliateId, brandIds);
    const unknown = brandIds.filter((b) => !known.has(b));
    if (unknown.length > 0) throw invalid('brand_not_found', `brandIds: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a brand' : 'are not brands'} you may promote or have orders of`, { values: unknown.slice(0, 20) });
  }
}
