// Mixed load against one or more servers for a fixed time, at a steady rate: mostly redirects from
// many visitors, plus the affiliate's list reads and link creation, and the brands' conversions
// for clicks the redirects handed out. Records every answer by kind and status, every 5xx and
// every request that got no answer (with when), and every click id received.
import type { SoakLink, SoakWorld } from './world.js';
import { codeOfShortUrl } from './world.js';
import { HttpClient, NoAnswer, type Answer, type Outgoing } from './http-client.js';
import { isCrawler, Visitors } from './visitors.js';

export const REQUEST_KINDS = ['redirect', 'list', 'create', 'conversion'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** Share of each kind in the mix (a conversion with no click old enough to report becomes a redirect). */
const MIX: Record<RequestKind, number> = { redirect: 0.8, list: 0.11, create: 0.03, conversion: 0.06 };
/** What each kind answers when all is well (a conversion reported again after a refusal may answer 200: already stored). */
const EXPECTED: Record<RequestKind, number[]> = { redirect: [302], list: [200], create: [200], conversion: [201, 200] };

/** A brand reports an order a few seconds after the click (the visitor shops first), so it is written by then on any instance. */
const CLICK_AGE_BEFORE_ORDER_MS = 2000;
/** Clicks kept as candidates for an order; the oldest are forgotten first. */
const ORDER_CANDIDATES = 2000;
/** The links most redirects go to (popular links), among the first ones created. */
const HOT_LINKS = 40;
const VISITORS = 50_000;

export interface LoadOptions {
  /** Base URLs of the servers; requests go round-robin, as through a load balancer. */
  servers: string[];
  world: SoakWorld;
  durationMs: number;
  /** Requests per second, all kinds together. */
  rate: number;
  /** Requests in flight at most. */
  concurrency: number;
  /** Unique to the run: prefix of the mdasc of created links and of reported order ids. */
  tag: string;
  /** The phase's time origin (Date.now()): every recorded time is milliseconds since it. */
  epoch: number;
}

export interface KindTally {
  statuses: Record<number, number>;
  /** Per second of the run (since the epoch): answers below 500, and 5xx answers or none. */
  okPerSecond: number[];
  failedPerSecond: number[];
  /** Requests without an HTTP answer, by error code. */
  unanswered: Record<string, number>;
  latenciesMs: number[];
}

export interface ServerErrorAnswer {
  /** When the answer arrived, and when the request was sent (ms since the epoch). */
  atMs: number;
  sentAtMs: number;
  kind: RequestKind;
  status: number;
  /** The error body's code (database_unavailable…), or the start of the body when it has none (a HEAD answer has none). */
  code: string | undefined;
  body?: string;
  method: Outgoing['method'];
  path: string;
  server: number;
}

export interface UnexpectedAnswer {
  atMs: number;
  kind: RequestKind;
  status: number | string;
  path: string;
  body: string;
  server: number;
}

export interface LoadResult {
  durationMs: number;
  tally: Record<RequestKind, KindTally>;
  /** Every 5xx answer. */
  serverErrors: ServerErrorAnswer[];
  /** Every request without an answer, and the first 4xx answers that were not expected. */
  unexpected: UnexpectedAnswer[];
  unexpectedCount: number;
  /** Every click id a 302 carried. */
  clickIds: Set<string>;
  linksCreated: number;
  /** Before the load: every first link visited once on each server (see prime()). */
  priming: { requests: number; clicks: number; tookMs: number };
  /** Order ids the brands were told are stored (201, or 200 on a retry). */
  ordersAccepted: Set<string>;
  /** Conversions sent again after 503/429 or no answer (a retry is safe: idempotent per order id). */
  conversionRetries: number;
  staleConnectionRetries: number;
}

interface PendingOrder {
  clickId: string;
  brandId: string;
  orderId: string;
  value: number;
  /** When it may be sent (again). */
  dueAt: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Hands out request slots at a steady rate; a late worker gets the next slot at once but builds no backlog. */
class Pacer {
  private next = performance.now();
  constructor(private readonly intervalMs: number) {}

  async slot(): Promise<void> {
    const now = performance.now();
    this.next = Math.max(this.next + this.intervalMs, now);
    if (this.next - now >= 1) await sleep(this.next - now);
  }
}

export class MixedLoad {
  private readonly clients: HttpClient[];
  private readonly visitors = new Visitors(VISITORS);
  private readonly links: SoakLink[];
  private readonly keyOfBrand: Map<string, string>;
  private readonly lists: string[];
  private readonly candidates: Array<{ clickId: string; brandId: string; at: number }> = [];
  private readonly retries: PendingOrder[] = [];
  private turn = 0;
  private serial = 0;
  private readonly result: LoadResult;

  constructor(private readonly options: LoadOptions) {
    const perServer = Math.max(1, Math.ceil(options.concurrency / options.servers.length));
    this.clients = options.servers.map((url) => new HttpClient(url, perServer));
    this.links = [...options.world.links];
    this.keyOfBrand = new Map(options.world.brands.map((b) => [b.id, b.key]));
    this.lists = listPaths(options.world);
    const tally = (): KindTally => ({ statuses: {}, okPerSecond: [], failedPerSecond: [], unanswered: {}, latenciesMs: [] });
    this.result = {
      durationMs: 0,
      tally: { redirect: tally(), list: tally(), create: tally(), conversion: tally() },
      serverErrors: [],
      unexpected: [],
      unexpectedCount: 0,
      clickIds: new Set(),
      linksCreated: 0,
      priming: { requests: 0, clicks: 0, tookMs: 0 },
      ordersAccepted: new Set(),
      conversionRetries: 0,
      staleConnectionRetries: 0,
    };
  }

  async run(): Promise<LoadResult> {
    const started = performance.now();
    const deadline = started + this.options.durationMs;
    const pacer = new Pacer(1000 / this.options.rate);
    const worker = async () => {
      for (;;) {
        await pacer.slot();
        if (performance.now() >= deadline) return;
        await this.step();
      }
    };
    await Promise.all(Array.from({ length: this.options.concurrency }, worker));
    this.result.durationMs = Math.round(performance.now() - started);
    this.result.staleConnectionRetries = this.clients.reduce((n, c) => n + c.staleConnectionRetries, 0);
    for (const client of this.clients) client.close();
    return this.result;
  }

  /**
   * Visits every link of the world once on each server, `rate` a second in all, before the load:
   * the bounded caches of a long-running instance (the redirect cache above all) are full when
   * the warm-up ends, so growth measured after it is growth of what is not bounded. Each visit is
   * a click like any other: its id is kept for the count of stored clicks.
   */
  async prime(rate: number): Promise<void> {
    const started = performance.now();
    const links = [...this.links];
    const pacer = new Pacer(1000 / rate);
    const visit = async (client: HttpClient, server: number, link: SoakLink) => {
      const visitor = this.visitors.person();
      this.result.priming.requests++;
      let answer: Answer;
      try {
        answer = await client.send({ method: 'GET', path: `/${link.code}`, headers: { 'user-agent': visitor.userAgent, 'x-forwarded-for': visitor.address } });
      } catch (error) {
        this.noteUnexpected({ atMs: this.now(), kind: 'redirect', status: error instanceof NoAnswer ? error.code : String(error), path: `/${link.code}`, body: 'priming', server });
        return;
      }
      const clickId = clickIdIn(answer.headers.location);
      if (answer.status === 302 && clickId) {
        this.result.clickIds.add(clickId);
        this.result.priming.clicks++;
      } else this.noteUnexpected({ atMs: this.now(), kind: 'redirect', status: answer.status, path: `/${link.code}`, body: `priming: ${answer.body.slice(0, 200)}`, server });
    };
    await Promise.all(
      this.clients.map(async (client, server) => {
        let next = 0;
        const worker = async () => {
          while (next < links.length) {
            const link = links[next++]!;
            await pacer.slot();
            await visit(client, server, link);
          }
        };
        await Promise.all(Array.from({ length: Math.max(1, Math.ceil(this.options.concurrency / this.clients.length)) }, worker));
      }),
    );
    this.result.priming.tookMs = Math.round(performance.now() - started);
  }

  /** Requests answered so far, 5xx among them, and click ids received: for a progress line. */
  progress(): { requests: number; serverErrors: number; clicks: number } {
    const requests = REQUEST_KINDS.reduce((n, kind) => n + Object.values(this.result.tally[kind].statuses).reduce((a, b) => a + b, 0), 0);
    return { requests, serverErrors: this.result.serverErrors.length, clicks: this.result.clickIds.size };
  }

  private step(): Promise<void> {
    const draw = Math.random();
    if (draw < MIX.conversion) {
      const order = this.nextOrder();
      if (order) return this.convert(order);
    } else if (draw < MIX.conversion + MIX.create) {
      return this.createLinks();
    } else if (draw < MIX.conversion + MIX.create + MIX.list) {
      return this.readList();
    }
    return this.redirect();
  }

  private now = () => Date.now() - this.options.epoch;

  /** Sends a request to the next server and tallies the answer; undefined when there was none. */
  private async send(kind: RequestKind, outgoing: Outgoing): Promise<Answer | undefined> {
    const server = this.turn++ % this.clients.length;
    const sentAtMs = this.now();
    const started = performance.now();
    const tally = this.result.tally[kind];
    let answer: Answer;
    const count = (perSecond: number[]) => {
      const second = Math.floor(this.now() / 1000);
      perSecond[second] = (perSecond[second] ?? 0) + 1;
    };
    try {
      answer = await this.clients[server]!.send(outgoing);
    } catch (error) {
      count(tally.failedPerSecond);
      const code = error instanceof NoAnswer ? error.code : String(error);
      tally.unanswered[code] = (tally.unanswered[code] ?? 0) + 1;
      this.noteUnexpected({ atMs: this.now(), kind, status: code, path: outgoing.path, body: '', server });
      return undefined;
    }
    tally.latenciesMs.push(performance.now() - started);
    count(answer.status >= 500 ? tally.failedPerSecond : tally.okPerSecond);
    tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
    if (answer.status >= 500) {
      const code = errorCodeOf(answer.body);
      this.result.serverErrors.push({ atMs: this.now(), sentAtMs, kind, status: answer.status, code, ...(code === undefined && { body: answer.body.slice(0, 200) }), method: outgoing.method, path: outgoing.path, server });
    } else if (!EXPECTED[kind].includes(answer.status)) {
      this.noteUnexpected({ atMs: this.now(), kind, status: answer.status, path: outgoing.path, body: answer.body.slice(0, 300), server });
    }
    return answer;
  }

  private noteUnexpected(answer: UnexpectedAnswer): void {
    this.result.unexpectedCount++;
    if (this.result.unexpected.length < 100) this.result.unexpected.push(answer);
  }

  private async redirect(): Promise<void> {
    const link = Math.random() < 0.6 ? this.links[Math.floor(Math.random() * Math.min(HOT_LINKS, this.links.length))]! : this.links[Math.floor(Math.random() * this.links.length)]!;
    const visitor = Math.random() < 0.03 ? this.visitors.crawler() : this.visitors.person();
    const method = Math.random() < 0.01 ? 'HEAD' : 'GET';
    const query = Math.random() < 0.25 ? `?utm_source=soak&utm_campaign=c${this.serial % 7}` : '';
    const headers: Record<string, string> = { 'user-agent': visitor.userAgent, 'x-forwarded-for': visitor.address };
    if (Math.random() < 0.3) headers.referer = REFERRERS[this.serial % REFERRERS.length]!;
    this.serial++;
    const answer = await this.send('redirect', { method, path: `/${link.code}${query}`, headers });
    if (answer?.status !== 302) return;
    const clickId = clickIdIn(answer.headers.location);
    if (!clickId) {
      this.noteUnexpected({ atMs: this.now(), kind: 'redirect', status: 'no click id', path: `/${link.code}`, body: String(answer.headers.location), server: -1 });
      return;
    }
    this.result.clickIds.add(clickId);
    if (method === 'GET' && !isCrawler(visitor.userAgent)) {
      this.candidates.push({ clickId, brandId: link.brandId, at: Date.now() });
      if (this.candidates.length > ORDER_CANDIDATES) this.candidates.shift();
    }
  }

  private async readList(): Promise<void> {
    const path = this.lists[this.serial++ % this.lists.length]!;
    await this.send('list', { method: 'GET', path, headers: { 'x-api-key': this.options.world.affiliateKey } });
  }

  private async createLinks(): Promise<void> {
    const brand = this.options.world.brands[this.serial % this.options.world.brands.length]!;
    const mdasc = `${this.options.tag}-link-${this.serial++}`;
    const answer = await this.send('create', {
      method: 'POST',
      path: '/affiliate/shortener/url',
      headers: { 'x-api-key': this.options.world.affiliateKey },
      json: { organizationId: brand.id, type: 'BrandPage', mdasc },
    });
    if (answer?.status !== 200) return;
    const channels = JSON.parse(answer.body) as Array<{ shortUrls: string[] }>;
    for (const channel of channels) {
      for (const url of channel.shortUrls) {
        this.links.push({ code: codeOfShortUrl(url), brandId: brand.id });
        this.result.linksCreated++;
      }
    }
  }

  /** A refused report due again, or an order for the oldest click old enough; undefined when none is. */
  private nextOrder(): PendingOrder | undefined {
    const due = this.retries.findIndex((o) => o.dueAt <= Date.now());
    if (due !== -1) return this.retries.splice(due, 1)[0];
    const oldest = this.candidates[0];
    if (!oldest || Date.now() - oldest.at < CLICK_AGE_BEFORE_ORDER_MS) return undefined;
    this.candidates.shift();
    const value = 1000 + Math.floor(Math.random() * 50_000);
    return { clickId: oldest.clickId, brandId: oldest.brandId, orderId: `${this.options.tag}-order-${this.serial++}`, value, dueAt: 0 };
  }

  private async convert(order: PendingOrder): Promise<void> {
    const answer = await this.send('conversion', {
      method: 'POST',
      path: '/advertiser/conversions',
      headers: { 'x-api-key': this.keyOfBrand.get(order.brandId)! },
      json: { clickId: order.clickId, orderId: order.orderId, value: order.value, items: [{ id: 'sku-soak', name: 'Soak item', quantity: 1, price: order.value, categories: 1 }] },
    });
    if (answer && (answer.status === 201 || answer.status === 200)) {
      this.result.ordersAccepted.add(order.orderId);
      return;
    }
    // As the API asks of brands: retry a 429, a 503 or a lost answer after Retry-After.
    if (!answer || answer.status === 429 || answer.status === 503) {
      const retryAfterS = Number(answer?.headers['retry-after'] ?? 1);
      this.retries.push({ ...order, dueAt: Date.now() + Math.min(Number.isFinite(retryAfterS) ? retryAfterS : 1, 5) * 1000 });
      this.result.conversionRetries++;
    }
  }
}

const REFERRERS = ['https://www.instagram.com/', 'https://t.co/x', 'https://www.youtube.com/', 'https://mail.example.com/'];

/** The click id a redirect's Location carries. */
const clickIdIn = (location: unknown): string | undefined => /[?&]clickId=([0-9a-f]{32})/.exec(String(location))?.[1];

function errorCodeOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/** The affiliate's list reads, in turn: brands, products, campaigns, orders, short links. */
function listPaths(world: SoakWorld): string[] {
  const today = new Date().toISOString().slice(0, 10);
  const brand = world.brands[0]!.id;
  return [
    '/affiliate/brands',
    '/affiliate/products?limit=20',
    '/affiliate/campaigns?status=onTime',
    '/affiliate/orders?limit=50',
    '/affiliate/shortener/urls?type=BrandPage&limit=50',
    '/affiliate/brands?page=2&limit=10',
    `/affiliate/products?search=${encodeURIComponent(world.searchWords[0] ?? 'classic')}&limit=20`,
    '/affiliate/campaigns?types=GenericCoupon,PersonalCoupon&limit=20',
    `/affiliate/orders?from=${today}&limit=50`,
    `/affiliate/shortener/urls?type=BrandPage&organizationId=${brand}&limit=20&page=2`,
    '/affiliate/brands?isPublic=true&isHighlight=true',
    `/affiliate/products?organizationIds=${brand}&isAvailable=true&limit=20`,
    `/affiliate/products?search=${encodeURIComponent(world.searchWords[1] ?? 'light')}&price=1000:50000`,
    `/affiliate/campaigns?organizationId=${brand}`,
    '/affiliate/orders?status=pending&limit=20&page=2',
  ];
}

/** Runs the mix for options.durationMs. */
export const runLoad = (options: LoadOptions): Promise<LoadResult> => new MixedLoad(options).run();
