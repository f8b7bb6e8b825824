import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { DailyChart } from '../../components/daily-chart.js';
import type { User } from '../../session.js';
import { FirstDay } from './first-day.js';

/** The first steps until they are done; clicks, orders and commission of the last 30 days, clicks per day, and the balance by status. */
export function AffiliateOverview({ me }: { me: User }) {
  const { t, money, number } = useMessages();
  const clicks = useQuery({
    queryKey: ['analytics', 'clicks', '30d'],
    queryFn: async () => ok(await api.GET('/affiliate/analytics', { params: { query: { event: 'clicks', groupBy: 'timeseries', interval: '30d' } } })).data,
  });
  // A row carries the figure of its event only: orders and commission are asked for apart.
  const figures = useQuery({
    queryKey: ['analytics', 'orders-and-commission', '30d'],
    queryFn: async () => {
      const query = { groupBy: 'brands', interval: '30d' } as const;
      const [orders, commission] = await Promise.all([
        api.GET('/affiliate/analytics', { params: { query: { ...query, event: 'orders' } } }),
        api.GET('/affiliate/analytics', { params: { query: { ...query, event: 'commission' } } }),
      ]);
      return { orders: ok(orders).data, commission: ok(commission).data };
    },
  });
  const balance = useQuery({ queryKey: ['balance'], queryFn: async () => ok(await api.GET('/affiliate/balance')).data });
  return (
    <>
      <h1>{t('overview.title')}</h1>
      <FirstDay me={me} />
      <QueryState query={clicks}>
        {(days) => {
          const total = days.reduce((sum, d) => sum + (d.clicks ?? 0), 0);
          return (
            <>
              <div class="tiles">
                <div class="tile">
                  <span>{t('overview.clicks')}</span>
                  <strong data-testid="clicks-30d">{number(total)}</strong>
                </div>
                <QueryState query={figures}>
                  {({ orders, commission }) => (
                    <>
                      <div class="tile">
                        <span>{t('overview.orders')}</span>
                        <strong data-testid="orders-30d">{number(orders.reduce((sum, r) => sum + (r.orders ?? 0), 0))}</strong>
                      </div>
                      {totalsByCurrency(commission).map(([currency, cents]) => (
                        <div class="tile" key={currency}>
                          <span>{t('overview.commission')}</span>
                          <strong>{money(cents, currency)}</strong>
                        </div>
                      ))}
                    </>
                  )}
                </QueryState>
              </div>
              <DailyChart days={days.map((d) => Date.parse(d.start ?? d.date ?? '') / 1000)} values={days.map((d) => d.clicks ?? 0)} label={t('overview.chart')} />
            </>
          );
        }}
      </QueryState>
      <h2>{t('overview.balance')}</h2>
      <QueryState query={balance}>
        {(currencies) =>
          currencies.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('balance.currency')}</th>
                  <th scope="col">{t('balance.pending')}</th>
                  <th scope="col">{t('balance.approved')}</th>
                  <th scope="col">{t('balance.paid')}</th>
                </tr>
              </thead>
              <tbody>
                {currencies.map((b) => (
                  <tr key={b.currency}>
                    <th scope="row">{b.currency}</th>
                    <td>{money(b.pending.commission, b.currency)}</td>
                    <td>{money(b.approved.commission, b.currency)}</td>
                    <td>{money(b.paid.commission, b.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
    </>
  );
}

/** Commission per currency, summed over the rows (integer cents). */
function totalsByCurrency(rows: Array<{ currency?: string; commission?: number }>): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const row of rows) if (row.currency) totals.set(row.currency, (totals.get(row.currency) ?? 0) + (row.commission ?? 0));
  return [...totals];
}
