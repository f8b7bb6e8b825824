import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { DailyChart } from '../../components/daily-chart.js';
import { LaunchChecklist } from './launch-checklist.js';

/** The brand's last 30 days: clicks on its links per day, and the totals. */
export function BrandOverview() {
  const { t, number, date } = useMessages();
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const tag = useQuery({ queryKey: ['tag'], queryFn: async () => ok(await api.GET('/advertiser/tag')).data });
  const waiting = tag.data?.awaitingConfirmation;
  const clicks = useQuery({
    queryKey: ['analytics', 'brand', 'clicks', '30d'],
    queryFn: async () => ok(await api.GET('/advertiser/analytics', { params: { query: { event: 'clicks', groupBy: 'timeseries', interval: '30d' } } })).data,
  });
  return (
    <>
      <QueryState query={profile}>{(brand) => <h1>{brand.name}</h1>}</QueryState>
      <LaunchChecklist />
      {waiting && waiting.orders > 0 && waiting.firstCancelAt && (
        <div class="card" role="status" data-testid="tag-awaiting">
          <p>{t('brandOverview.tagWaiting', { count: waiting.orders, day: date(waiting.firstCancelAt) })}</p>
          <Link href="/reconciliation">{t('conversions.reconcile')}</Link>
        </div>
      )}
      <h2>{t('overview.title')}</h2>
      <QueryState query={clicks}>
        {(days) => (
          <>
            <div class="tiles">
              <div class="tile">
                <span>{t('overview.clicks')}</span>
                <strong>{number(days.reduce((sum, d) => sum + (d.clicks ?? 0), 0))}</strong>
              </div>
            </div>
            <DailyChart days={days.map((d) => Date.parse(d.start ?? d.date ?? '') / 1000)} values={days.map((d) => d.clicks ?? 0)} label={t('overview.chart')} />
          </>
        )}
      </QueryState>
    </>
  );
}
