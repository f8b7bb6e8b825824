import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';

const PAGE_SIZE = 20;

/** What the network has paid the affiliate: one payout per payment run and currency, with its orders. */
export function Payouts() {
  const { t, money, date, number } = useMessages();
  const [page, setPage] = useState(1);
  const payouts = useQuery({
    queryKey: ['payouts', page],
    queryFn: async () => ok(await api.GET('/affiliate/payouts', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  return (
    <>
      <h1>{t('payouts.title')}</h1>
      <p class="hint">{t('payouts.hint')}</p>
      <QueryState query={payouts}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('payouts.none')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('payouts.paidOn')}</th>
                    <th scope="col">{t('payouts.period')}</th>
                    <th scope="col">{t('overview.orders')}</th>
                    <th scope="col">{t('payouts.total')}</th>
                    <th scope="col"><span class="visually-hidden">{t('overview.orders')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((payout) => (
                    <tr key={payout.id} data-testid={`payout-${payout.id}`}>
                      <th scope="row">{date(payout.createdAt)}</th>
                      <td>{t('campaigns.period', { from: date(payout.periodStart), to: date(payout.periodEnd) })}</td>
                      <td>{number(payout.orderCount)}</td>
                      <td>{money(payout.total, payout.currency)}</td>
                      <td>
                        <Link href={`/orders?payout=${encodeURIComponent(payout.id)}`} aria-label={t('payouts.ordersOfNamed', { date: date(payout.createdAt), total: money(payout.total, payout.currency) })}>
                          {t('payouts.ordersOf')}
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} />
            </>
          )
        }
      </QueryState>
    </>
  );
}
