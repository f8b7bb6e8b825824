import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { HoldReasons, isHeld } from '../../components/hold-reasons.js';
import { statusMessage } from '../../statuses.js';

/** The brand's conversions, newest first; pending ones are approved or declined here, but for those the network is reviewing. */
export function Conversions() {
  const messages = useMessages();
  const { t, money, date, refusal } = messages;
  const queries = useQueryClient();
  const conversions = useQuery({ queryKey: ['conversions'], queryFn: async () => ok(await api.GET('/advertiser/conversions', { params: { query: { limit: 100 } } })).data });
  const settle = useMutation({
    mutationFn: async ({ orderId, status }: { orderId: string; status: 'approved' | 'canceled' }) =>
      ok(await api.PATCH('/advertiser/conversions/{orderId}', { params: { path: { orderId } }, body: { status } })),
    // Refused or not, the list shows each order as it now is (a hold made meanwhile).
    onSettled: () => void queries.invalidateQueries({ queryKey: ['conversions'] }),
  });
  return (
    <>
      <h1>{t('conversions.title')}</h1>
      <p>
        <Link href="/reconciliation">{t('conversions.reconcile')}</Link>
      </p>
      {settle.isError && <p role="alert" class="error">{refusal(settle.error)}</p>}
      <QueryState query={conversions}>
        {(list) =>
          list.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('orders.order')}</th>
                  <th scope="col">{t('conversions.affiliate')}</th>
                  <th scope="col">{t('orders.date')}</th>
                  <th scope="col">{t('orders.value')}</th>
                  <th scope="col">{t('orders.commission')}</th>
                  <th scope="col">{t('orders.status')}</th>
                  <th scope="col"><span class="visually-hidden">{t('conversions.approve')}</span></th>
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <tr key={c.id} data-testid={`conversion-${c.orderId}`}>
                    <th scope="row">
                      <Link href={`/conversions/${encodeURIComponent(c.orderId)}`}>{c.orderId}</Link>
                    </th>
                    <td>{c.affiliateId}</td>
                    <td>{date(c.createdAt)}</td>
                    <td>{money(c.value, c.currency)}</td>
                    <td>{money(c.commission, c.currency)}</td>
                    <td>
                      {isHeld(c) ? (
                        <>
                          <span class="badge held">{t('hold.status')}</span>
                          <HoldReasons conversion={c} />
                        </>
                      ) : (
                        <span class={`badge ${c.status}`}>{t(statusMessage(c.status) ?? 'status.pending')}</span>
                      )}
                    </td>
                    <td class="actions">
                      {isHeld(c) && c.status === 'pending' && <span class="hint">{t('hold.networkReviews')}</span>}
                      {c.status === 'pending' && !isHeld(c) && (
                        <>
                          <button type="button" aria-label={t('conversions.approveOrder', { order: c.orderId })} onClick={() => settle.mutate({ orderId: c.orderId, status: 'approved' })}>
                            {t('conversions.approve')}
                          </button>
                          <button type="button" aria-label={t('conversions.declineOrder', { order: c.orderId })} onClick={() => settle.mutate({ orderId: c.orderId, status: 'canceled' })}>
                            {t('conversions.decline')}
                          </button>
                        </>
                      )}
                    </td>
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
