import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import type { MessageKey } from '../../i18n/en.js';
import type { components } from '../../../../packages/client/index.js';

const PAGE_SIZE = 20;

type Payout = components['schemas']['Payout'];

/** A payout's status: its words and the colour of its badge. */
const PAYOUT_STATUSES: Record<Payout['status'], { key: MessageKey; badge: string }> = {
  pending: { key: 'payouts.pending', badge: 'pending' },
  sent: { key: 'payouts.sent', badge: 'approved' },
  settled: { key: 'payouts.settled', badge: 'paid' },
  failed: { key: 'payouts.failed', badge: 'canceled' },
};

/** What the network has paid the affiliate: one payout per run and currency, where it went, how far it got, with its orders. */
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
                    <th scope="col">{t('payouts.createdOn')}</th>
                    <th scope="col">{t('payouts.status')}</th>
                    <th scope="col">{t('payouts.total')}</th>
                    <th scope="col">{t('payouts.method')}</th>
                    <th scope="col">{t('payouts.dates')}</th>
                    <th scope="col">{t('payouts.period')}</th>
                    <th scope="col">{t('overview.orders')}</th>
                    <th scope="col"><span class="visually-hidden">{t('overview.orders')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((payout) => (
                    <tr key={payout.id} data-testid={`payout-${payout.id}`}>
                      <th scope="row">{date(payout.createdAt)}</th>
                      <td>
                        <span class={`badge ${PAYOUT_STATUSES[payout.status].badge}`} data-testid={`payout-status-${payout.id}`}>
                          {t(PAYOUT_STATUSES[payout.status].key)}
                        </span>
                      </td>
                      <td>{money(payout.total, payout.currency)}</td>
                      <td>{payout.method ?? t('payouts.noMethod')}</td>
                      <td>
                        <ul class="dates">
                          {payout.sentAt && <li>{t('payouts.sentAt', { date: date(payout.sentAt) })}</li>}
                          {payout.settledAt && <li>{t('payouts.settledAt', { date: date(payout.settledAt) })}</li>}
                          {payout.failedAt && <li>{t('payouts.failedAt', { date: date(payout.failedAt), reason: payout.failureReason ?? t('payouts.noReason') })}</li>}
                          {!payout.sentAt && !payout.failedAt && <li>{t('payouts.notSent')}</li>}
                        </ul>
                      </td>
                      <td>{t('campaigns.period', { from: date(payout.periodStart), to: date(payout.periodEnd) })}</td>
                      <td>{number(payout.orderCount)}</td>
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
