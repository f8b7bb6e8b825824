// The analytics query and answer, for both sides: affiliates break down by channel and brand and
// filter by brand (organizationId) and channel; brands break down and filter by affiliate.
import { Type, type Static } from '@sinclair/typebox';
import { Uuid, DateOrDateTime, TimeZoneQuery } from '../../../schemas/common.js';
import { AFFILIATE_GROUPINGS, BRAND_GROUPINGS, EVENTS, keptDescription, type AnalyticsEvent, type Grouping } from '../../../domain/analytics/plan.js';
import type { Interval } from '../../../domain/analytics/ranges.js';
import { INTERVALS } from '../../../domain/analytics/ranges.js';
import type { AnalyticsAnswer, AnalyticsRequest } from '../../../domain/analytics/analytics-service.js';
import type { RollupScope } from '../../../lib/rollup-layout.js';
import { subIdFilterQuery } from '../../../schemas/order.js';
import { subIdFiltersOf } from '../../../lib/sub-ids.js';

export type Side = 'affiliate' | 'brand';

const oneOf = (values: readonly string[], options: { description: string; default?: string }) => Type.Union(values.map((v) => Type.Literal(v)), options);

const SCOPES: Record<Side, Array<[RollupScope, string]>> = {
  affiliate: [
    ['affiliate', 'all your links'],
    ['affiliate_brand', 'with organizationId'],
    ['link', 'with linkCode'],
  ],
  brand: [
    ['brand', 'all your affiliates'],
    ['affiliate_brand', 'with affiliateId'],
    ['link', 'with linkCode'],
  ],
};

/** What the rollups keep, per event and key filter: the description lists what is answered. */
export function servedDescription(side: Side): string {
  const unasked = side === 'brand' ? (['channel', 'brand'] as const) : [];
  const lines = SCOPES[side].map(([scope, label]) => `- ${label}: clicks by ${keptDescription('clicks', scope, unasked)}. Orders, sales and commission by ${keptDescription('orders', scope, unasked)}.`);
  return [
    'What is answered: groupBy names one dimension, and ' + (side === 'affiliate' ? 'country, device and channelId' : 'country and device') + ' filter by theirs; a request is answered when the rollups keep the dimensions it breaks down and filters by together, for its key:',
    ...lines,
    'A groupBy fixed by the key (links, channels, brands or affiliates of one link; brands with organizationId; affiliates with affiliateId) answers one row. Any other combination answers 400 unsupported_combination.',
    ...(side === 'affiliate'
      ? [
          'By sub-id (groupBy=sub1 … sub5, or the filters sub1 … sub5: the sub-ids your clicks carried, GET /{code}?sub1=…): summed from your clicks and orders that carry sub-ids in the range, since the rollups do not keep them. A row per value of the sub-id (clicks or orders without it are left out), e.g. { "sub1": "adset-7", "clicks": 12 }; orders, sales and commission per value and currency. With organizationId, linkCode, channelId, country, and for clicks device (orders keep the country of their click, not its device). With a sub-id filter, groupBy is timeseries or sub1 … sub5; any other answers 400 unsupported_combination.',
        ]
      : []),
  ].join('\n');
}

export function analyticsQuery(side: Side) {
  const groupings = side === 'affiliate' ? AFFILIATE_GROUPINGS : BRAND_GROUPINGS;
  return Type.Object(
    {
      event: Type.Optional(oneOf(EVENTS, { default: 'clicks', description: 'clicks (counted clicks), orders (not canceled), sales (their value) or commission (not canceled); money in integer cents per currency' })),
      groupBy: Type.Optional(oneOf(groupings, { default: 'timeseries', description: `How to break the figures down: ${groupings.join(', ')}` })),
      interval: Type.Optional(oneOf(INTERVALS, { description: 'The last 24 hours, or the last 7/30/90/365 local days including today, the year to date, or everything (default 30d). Not with start/end.' })),
      start: Type.Optional(DateOrDateTime('Start of the range: a date is the start of that local day in timezone; a date-time is rounded down to its hour')),
      end: Type.Optional(DateOrDateTime('End of the range: a date includes that whole local day; a date-time is rounded up to its hour. Default: the end of today')),
      timezone: Type.Optional({ ...TimeZoneQuery, description: 'IANA time zone the days and interval follow (default UTC); its offset must be a whole number of hours' }),
      ...(side === 'affiliate'
        ? {
            organizationId: Type.Optional({ ...Uuid, description: 'Only clicks and orders at this brand' }),
            channelId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this channel of yours' })),
            ...subIdFilterQuery((name) => `Only clicks and orders whose ${name} (the sub-id your click carried) is exactly this, case included`),
          }
        : { affiliateId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this affiliate' })) }),
      linkCode: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this short link (its code)' })),
      country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'Only clicks from this country (ISO 3166 alpha-2; ZZ: unknown)' })),
      device: Type.Optional(oneOf(['desktop', 'mobile', 'tablet', 'other'], { description: 'Only clicks from this device type' })),
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Orders, sales and commission: only this currency (ISO 4217)' })),
      include: Type.Optional(Type.Literal('uncounted', { description: 'With event=clicks: also the clicks that did not count, by their first reason (suspended, then bot, head, repeat, suspicious)' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Groupings other than timeseries: the top this many (default 100)' })),
    },
    { additionalProperties: false },
  );
}

export type AnalyticsQuery = Static<ReturnType<typeof analyticsQuery>> & {
  organizationId?: string;
  channelId?: string;
  affiliateId?: string;
  sub1?: string;
  sub2?: string;
  sub3?: string;
  sub4?: string;
  sub5?: string;
};

export function requestOf(q: AnalyticsQuery): AnalyticsRequest {
  return {
    // The schema admits only the listed values.
    event: (q.event ?? 'clicks') as AnalyticsEvent,
    groupBy: (q.groupBy ?? 'timeseries') as Grouping,
    ...(q.interval !== undefined ? { interval: q.interval as Interval } : {}),
    ...(q.start !== undefined ? { start: q.start } : {}),
    ...(q.end !== undefined ? { end: q.end } : {}),
    ...(q.timezone !== undefined ? { timezone: q.timezone } : {}),
    ...(q.organizationId !== undefined ? { organizationId: q.organizationId } : {}),
    ...(q.affiliateId !== undefined ? { affiliateId: q.affiliateId } : {}),
    ...(q.channelId !== undefined ? { channelId: q.channelId } : {}),
    ...(q.linkCode !== undefined ? { linkCode: q.linkCode } : {}),
    ...(q.country !== undefined ? { country: q.country } : {}),
    ...(q.device !== undefined ? { device: q.device } : {}),
    ...(q.currency !== undefined ? { currency: q.currency } : {}),
    includeUncounted: q.include === 'uncounted',
    limit: q.limit ?? 100,
    subIds: subIdFiltersOf(q),
  };
}

const Uncounted = Type.Object(
  {
    bot: Type.Integer({ description: 'A crawler or link preview (or no user agent)' }),
    head: Type.Integer({ description: 'A HEAD request' }),
    repeat: Type.Integer({ description: 'The same visitor again within the repeat window' }),
    suspicious: Type.Integer({ description: 'Past the click velocity limit of its address on the link' }),
    suspended: Type.Integer({ description: 'On a link of an affiliate or brand the network had suspended: the visitor was redirected, nothing counted' }),
  },
  { description: 'Clicks that did not count, each under its first reason: suspended, then bot, head, repeat, suspicious' },
);


export const AnalyticsRowSchema = Type.Object(
  {
    start: Type.Optional(Type.String({ format: 'date-time', description: 'timeseries: first instant of the bucket (UTC)' })),
    date: Type.Optional(Type.String({ format: 'date', description: 'timeseries by day: the local date of the bucket' })),
    country: Type.Optional(Type.String({ description: 'ISO 3166 alpha-2; ZZ: unknown' })),
    device: Type.Optional(Type.String({ description: 'desktop, mobile, tablet or other' })),
    browser: Type.Optional(Type.String()),
    os: Type.Optional(Type.String()),
    referer: Type.Optional(Type.String({ description: 'Host of the Referer; (direct) without one' })),
    linkId: Type.Optional(Type.String({ description: 'Left out for orders reported without a link' })),
    code: Type.Optional(Type.String({ description: 'The link code' })),
    channelId: Type.Optional(Type.String({ description: 'Left out for orders reported without a channel' })),
    organizationId: Type.Optional(Type.String()),
    affiliateId: Type.Optional(Type.String()),
    sub1: Type.Optional(Type.String({ description: 'groupBy=sub1: the value of the sub-id' })),
    sub2: Type.Optional(Type.String({ description: 'groupBy=sub2: the value of the sub-id' })),
    sub3: Type.Optional(Type.String({ description: 'groupBy=sub3: the value of the sub-id' })),
    sub4: Type.Optional(Type.String({ description: 'groupBy=sub4: the value of the sub-id' })),
    sub5: Type.Optional(Type.String({ description: 'groupBy=sub5: the value of the sub-id' })),
    name: Type.Optional(Type.String({ description: 'Name of the brand, affiliate or channel (left out when it no longer exists)' })),
    clicks: Type.Optional(Type.Integer({ description: 'Counted clicks' })),
    uncounted: Type.Optional(Uncounted),
    currency: Type.Optional(Type.String({ description: 'ISO 4217 of the money figures; left out of timeseries buckets when the range has no order in any currency' })),
    orders: Type.Optional(Type.Integer()),
    sales: Type.Optional(Type.Integer({ description: 'Integer cents (minor units)' })),
    commission: Type.Optional(Type.Integer({ description: 'Integer cents (minor units)' })),
  },
  { description: 'One bucket or group: what it is, then its figure' },
);

export const AnalyticsMeta = Type.Object({
  event: Type.String(),
  groupBy: Type.String(),
  timezone: Type.String(),
  start: Type.String({ format: 'date-time', description: 'First instant of the range (UTC)' }),
  end: Type.String({ format: 'date-time', description: 'First instant after the range (UTC)' }),
  granularity: Type.Union([Type.Literal('hour'), Type.Literal('day')], { description: 'timeseries buckets: hours for ranges up to 48 hours, local days beyond' }),
});

export function metaOf(request: AnalyticsRequest, answer: AnalyticsAnswer) {
  const { range } = answer;
  return { event: request.event, groupBy: request.groupBy, timezone: range.timezone, start: range.from, end: range.to, granularity: range.granularity };
}
