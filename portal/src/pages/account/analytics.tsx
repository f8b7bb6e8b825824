import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { useClickFactWords } from '../../components/click-facts.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { DailyChart } from '../../components/daily-chart.js';
import { Choice } from '../../components/choice.js';
import type { paths } from '../../../../packages/client/index.js';
import { SUB_IDS, SUB_ID_NAMES, SubIdPicker, subIdFilterOf, subIdQuery, type SubIdFilter } from '../../components/sub-id-picker.js';

type Side = 'affiliate' | 'brand';
type AffiliateQuery = NonNullable<paths['/affiliate/analytics']['get']['parameters']['query']>;
type BrandQuery = NonNullable<paths['/advertiser/analytics']['get']['parameters']['query']>;
type Event = NonNullable<AffiliateQuery['event']>;
type Interval = NonNullable<AffiliateQuery['interval']>;
type GroupBy = NonNullable<AffiliateQuery['groupBy']> | NonNullable<BrandQuery['groupBy']>;
type Row = paths['/affiliate/analytics']['get']['responses'][200]['content']['application/json']['data'][number];

const EVENTS: Record<Event, MessageKey> = { clicks: 'analytics.clicks', orders: 'analytics.orders', sales: 'analytics.sales', commission: 'analytics.commission' };
const INTERVALS: Record<Interval, MessageKey> = {
  '24h': 'analytics.24h',
  '7d': 'analytics.7d',
  '30d': 'analytics.30d',
  '90d': 'analytics.90d',
  ytd: 'analytics.ytd',
  '1y': 'analytics.1y',
  all: 'analytics.all',
};
const GROUPS: Record<Side, GroupBy[]> = {
  affiliate: ['timeseries', 'channels', 'links', 'brands', 'countries', 'devices', 'browsers', 'os', 'referers', ...SUB_IDS],
  brand: ['timeseries', 'affiliates', 'links', 'countries', 'devices', 'browsers', 'os', 'referers'],
};
const GROUP_NAMES: Record<GroupBy, MessageKey> = {
  timeseries: 'analytics.byTime',
  channels: 'analytics.byChannel',
  links: 'analytics.byLink',
  brands: 'analytics.byBrand',
  affiliates: 'analytics.byAffiliate',
  countries: 'analytics.byCountry',
  devices: 'analytics.byDevice',
  browsers: 'analytics.byBrowser',
  os: 'analytics.byOs',
  referers: 'analytics.byReferer',
  ...SUB_ID_NAMES,
};
/** With a sub-id filter, the figures break down by time or by sub-id only. */
const BY_SUB_ID: GroupBy[] = ['timeseries', ...SUB_IDS];

/** The browser's time zone when the API can sum whole hours in it; UTC otherwise (said on the page). */
function timeZone(): { zone: string; exact: boolean } {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return new Date().getTimezoneOffset() % 60 === 0 ? { zone, exact: true } : { zone: 'UTC', exact: false };
}

/** What a grouped row is called: its name, else its code or value (a country and a device in words). */
const labelOf = (row: Row, facts: ReturnType<typeof useClickFactWords>): string =>
  row.name ??
  row.code ??
  (row.country && facts.country(row.country)) ??
  (row.device && facts.device(row.device)) ??
  row.browser ??
  row.os ??
  row.referer ??
  row.sub1 ??
  row.sub2 ??
  row.sub3 ??
  row.sub4 ??
  row.sub5 ??
  row.channelId ??
  row.organizationId ??
  row.affiliateId ??
  '—';

/** Clicks, orders, sales and commission over time and broken down, as the analytics endpoints answer them; the same as CSV. */
export function Analytics({ side }: { side: Side }) {
  const { t, money, number, date } = useMessages();
  const facts = useClickFactWords();
  const [event, setEvent] = useState<Event>('clicks');
  const [interval, setWhen] = useState<Interval>('30d');
  const [groupBy, setGroupBy] = useState<GroupBy>('timeseries');
  // Affiliates: only the clicks and orders whose click carried this sub-id.
  const [subId, setSubId] = useState<SubIdFilter>({ name: '', value: '' });
  const { zone, exact } = timeZone();
  const bySubId = subIdQuery(subId);
  const filtered = Object.keys(bySubId).length > 0;
  const query = { event, interval, groupBy, timezone: zone, ...bySubId };
  const figures = useQuery({
    queryKey: ['analytics', side, event, interval, groupBy, zone, bySubId],
    queryFn: async () =>
      side === 'affiliate'
        ? ok(await api.GET('/affiliate/analytics', { params: { query: { ...query, groupBy: groupBy as AffiliateQuery['groupBy'] } } })).data
        : (ok(await api.GET('/advertiser/analytics', { params: { query: { ...query, groupBy: groupBy as BrandQuery['groupBy'] } } })).data as Row[]),
    placeholderData: (previous) => previous,
  });
  const csv = `${side === 'affiliate' ? '/affiliate' : '/advertiser'}/analytics/export?${new URLSearchParams(query).toString()}`;
  const valueOf = (row: Row): string => (event === 'clicks' ? number(row.clicks ?? 0) : event === 'orders' ? number(row.orders ?? 0) : money(row[event] ?? 0, row.currency ?? 'BRL'));
  const amountOf = (row: Row): number => (event === 'clicks' ? row.clicks : row[event]) ?? 0;
  return (
    <>
      <h1>{t('analytics.title')}</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const next = subIdFilterOf(e.currentTarget);
          setSubId(next);
          // A sub-id filter answers by time or by sub-id only.
          if (next.name && next.value && !BY_SUB_ID.includes(groupBy)) setGroupBy('timeseries');
        }}
      >
        <Choice id="analytics-event" label={t('analytics.figure')} value={event} choices={Object.entries(EVENTS) as Array<[Event, MessageKey]>} onChange={setEvent} />
        <Choice id="analytics-interval" label={t('analytics.when')} value={interval} choices={Object.entries(INTERVALS) as Array<[Interval, MessageKey]>} onChange={setWhen} />
        <Choice
          id="analytics-group"
          label={t('analytics.breakDown')}
          value={groupBy}
          choices={GROUPS[side].filter((g) => !filtered || BY_SUB_ID.includes(g)).map((g) => [g, GROUP_NAMES[g]] as const)}
          onChange={setGroupBy}
        />
        {side === 'affiliate' && (
          <>
            <SubIdPicker id="analytics" filter={subId} />
            <button type="submit">{t('orders.filter')}</button>
          </>
        )}
        <a class="button secondary" href={csv} download>
          {t('orders.csv')}
        </a>
      </form>
      <p class="hint">{exact ? t('analytics.zone', { zone }) : t('analytics.utc')}</p>
      <QueryState query={figures}>
        {(rows) => {
          if (rows.length === 0) return <p>{t('common.empty')}</p>;
          if (groupBy === 'timeseries') {
            // One line: the first currency's buckets for money, every bucket for counts.
            const currency = rows.find((r) => r.currency)?.currency;
            const series = event === 'sales' || event === 'commission' ? rows.filter((r) => !r.currency || r.currency === currency) : rows;
            const total = series.reduce((sum, r) => sum + amountOf(r), 0);
            return (
              <>
                <div class="tiles">
                  <div class="tile">
                    <span>{t(EVENTS[event])}</span>
                    <strong data-testid="analytics-total">{event === 'sales' || event === 'commission' ? money(total, currency ?? 'BRL') : number(total)}</strong>
                  </div>
                </div>
                <DailyChart days={series.map((r) => Date.parse(r.start ?? r.date ?? '') / 1000)} values={series.map(amountOf)} label={t('analytics.chart', { figure: t(EVENTS[event]) })} />
              </>
            );
          }
          const largest = Math.max(1, ...rows.map(amountOf));
          return (
            <table data-testid="analytics-table">
              <thead>
                <tr>
                  <th scope="col">{t(GROUP_NAMES[groupBy])}</th>
                  <th scope="col">{t(EVENTS[event])}</th>
                  <th scope="col"><span class="visually-hidden">{t('analytics.share')}</span></th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row, i) => (
                  <tr key={i}>
                    <th scope="row">{row.date ? date(row.date) : labelOf(row, facts)}</th>
                    <td>{valueOf(row)}</td>
                    <td class="bar-cell">
                      <span class="bar" style={{ width: `${Math.round((amountOf(row) / largest) * 100)}%` }} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          );
        }}
      </QueryState>
    </>
  );
}
