// A postback's URL template: the affiliate's tracker URL with macros in braces ({click_id}), each
// filled in, URL-encoded, with a value of the event; a macro without a value becomes empty. A
// template is read once when it is saved: an unknown macro, a brace never closed (or closing
// nothing), a macro in the scheme or host, or a URL that is not https is refused there, with the
// character offset (from 0) of what is wrong.
import { invalid } from '../errors.js';
import { checkedTargetUrl, MAX_URL_LENGTH } from '../urls.js';
import { majorUnits } from '../money.js';
import { PAYLOAD_VERSION } from '../webhooks/events.js';
import type { PostbackEvent } from '../../lib/postback-events.js';

export const MACROS = [
  'click_id',
  'sub1',
  'sub2',
  'sub3',
  'sub4',
  'sub5',
  'order_id',
  'brand_id',
  'commission',
  'commission_cents',
  'currency',
  'status',
  'event',
  'timestamp',
] as const;
export type Macro = (typeof MACROS)[number];
export type MacroValues = Partial<Record<Macro, string>>;

/** A template read: literal text, and macros where they stand. */
export type TemplatePart = string | { macro: Macro; position: number };

const EXAMPLE_URL = 'https://tracker.example.com/postback?cid={click_id}&payout={commission}';
const isMacro = (name: string): name is Macro => (MACROS as readonly string[]).includes(name);
const macroList = MACROS.map((m) => `{${m}}`);
/** At most this much of a refused macro is named back. */
const NAMED = 40;

/** The template's parts; refuses (400) an unknown macro or a brace that opens or closes nothing, saying where. */
export function templateParts(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '}') throw invalid('unclosed_macro', `the } at character offset ${i} closes no macro: write macros as {click_id}`, { position: i, macro: '}' });
    if (c !== '{') continue;
    const close = text.indexOf('}', i + 1);
    const reopen = text.indexOf('{', i + 1);
    if (close === -1 || (reopen !== -1 && reopen < close)) {
      const macro = text.slice(i, reopen === -1 ? undefined : reopen).slice(0, NAMED);
      throw invalid('unclosed_macro', `the { at character offset ${i} is never closed: write macros as {click_id}`, { position: i, macro });
    }
    const name = text.slice(i + 1, close);
    if (!isMacro(name)) {
      throw invalid('unknown_macro', `{${name.slice(0, NAMED)}} at character offset ${i} is not a macro; the macros are ${macroList.join(', ')}`, { position: i, macro: `{${name}}`.slice(0, NAMED), allowed: macroList });
    }
    if (i > literal) parts.push(text.slice(literal, i));
    parts.push({ macro: name, position: i });
    literal = close + 1;
    i = close;
  }
  if (literal < text.length) parts.push(text.slice(literal));
  return parts;
}

/**
 * The template read and checked as a URL the network may request: https (http too where local
 * targets are allowed, for tests and development), macros after the host only (where it is sent
 * is fixed when it is saved, and checked then), and filled in with example values, a URL to a
 * public address without a user name or password, at most MAX_URL_LENGTH characters.
 */
export function checkedTemplate(text: string, allowLocal: boolean): TemplatePart[] {
  if (text.length > MAX_URL_LENGTH) throw invalid('invalid_url', `url must be at most ${MAX_URL_LENGTH} characters long`, { limit: MAX_URL_LENGTH });
  const scheme = /^https:\/\//i.exec(text) ?? (allowLocal ? /^http:\/\//i.exec(text) : null);
  if (!scheme) throw invalid('invalid_url', `url must begin with https:// (such as ${EXAMPLE_URL})`, { position: 0 });
  const parts = templateParts(text);
  const rest = text.slice(scheme[0].length).search(/[/?#]/);
  const hostEnd = rest === -1 ? text.length : scheme[0].length + rest;
  const inHost = parts.find((p): p is Exclude<TemplatePart, string> => typeof p !== 'string' && p.position < hostEnd);
  if (inHost) throw invalid('macro_in_host', `{${inHost.macro}} at character offset ${inHost.position} is in the URL's host: macros go in its path or query`, { position: inHost.position, macro: `{${inHost.macro}}` });
  checkedTargetUrl(filledIn(parts, exampleValues('conversion.created', new Date(0).toISOString())), { example: EXAMPLE_URL, allowLocal });
  return parts;
}

/** The URL to request: each macro's value URL-encoded, an absent one empty. */
export function filledIn(parts: readonly TemplatePart[], values: MacroValues): string {
  return parts.map((part) => (typeof part === 'string' ? part : encodeURIComponent(values[part.macro] ?? ''))).join('');
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined);

/** Major units of integer cents, or nothing for a currency code Intl does not know. */
function decimal(cents: number, currency: string): string | undefined {
  try {
    return majorUnits(cents, currency);
  } catch {
    return undefined;
  }
}

/**
 * The macros' values of an event, from its payload (`{ type, version, timestamp, data }`, data the
 * affiliate's view of the order), read defensively: a field the view lacks leaves its macro empty.
 */
export function valuesOf(event: string, payload: string): MacroValues {
  const { timestamp, data = {} } = JSON.parse(payload) as { timestamp?: unknown; data?: Record<string, unknown> };
  const subIds = (typeof data.subIds === 'object' && data.subIds !== null ? data.subIds : {}) as Record<string, unknown>;
  const cents = typeof data.commission === 'number' && Number.isSafeInteger(data.commission) ? data.commission : undefined;
  const currency = text(data.currency);
  const values: MacroValues = {
    click_id: text(data.clickId),
    sub1: text(subIds.sub1),
    sub2: text(subIds.sub2),
    sub3: text(subIds.sub3),
    sub4: text(subIds.sub4),
    sub5: text(subIds.sub5),
    // The network's order id (GET /affiliate/orders/{id}), never the brand's own number.
    order_id: text(data.id),
    brand_id: text(data.organizationId),
    commission: cents !== undefined && currency ? decimal(cents, currency) : undefined,
    commission_cents: cents === undefined ? undefined : String(cents),
    currency,
    status: text(data.commissionStatus),
    event,
    timestamp: text(timestamp),
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** The commission's status each event announces. */
const STATUS_OF: Record<PostbackEvent, string> = { 'conversion.created': 'pending', 'conversion.approved': 'approved', 'conversion.canceled': 'canceled', 'commission.paid': 'paid' };

/** The order a test sends: every macro has a value, each saying it is a test. */
export function examplePayload(event: PostbackEvent, timestamp: string, brandId = '00000000-0000-4000-8000-000000000000'): string {
  const data = {
    id: 'test-order',
    clickId: 'test-click',
    subIds: { sub1: 'test-sub1', sub2: 'test-sub2', sub3: 'test-sub3', sub4: 'test-sub4', sub5: 'test-sub5' },
    organizationId: brandId,
    commission: 1290,
    currency: 'BRL',
    commissionStatus: STATUS_OF[event],
  };
  return JSON.stringify({ type: 'test', version: PAYLOAD_VERSION, timestamp, data });
}

const exampleValues = (event: PostbackEvent, timestamp: string): MacroValues => valuesOf(event, examplePayload(event, timestamp));
