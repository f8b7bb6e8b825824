import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';

const COMMISSION_STATUS: Record<string, MessageKey> = { pending: 'status.pending', approved: 'status.approved', paid: 'status.paid', canceled: 'status.declined' };

/** The affiliate's orders, newest first, with their commission and its status. */
export function Orders() {
  const { t, money, date } = useMessages();
  const orders = useQuery({ queryKey: ['orders'], queryFn: async () => ok(await api.GET('/affiliate/orders', { params: { query: { limit: 100 } } })) });
  return (
    <>
      <h1>{t('orders.title')}</h1>
      <QueryState query={orders}>
        {(list) =>
          list.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('orders.order')}</th>
                  <th scope="col">{t('orders.date')}</th>
                  <th scope="col">{t('orders.value')}</th>
                  <th scope="col">{t('orders.commission')}</th>
                  <th scope="col">{t('orders.status')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map(({ data: order }) => (
                  <tr key={order.id} data-testid={`order-${order.orderId}`} data-id={order.id}>
                    <th scope="row">{order.orderId}</th>
                    <td>{date(order.createdAt)}</td>
                    <td>{money(order.value, order.currency)}</td>
                    <td>{money(order.commission, order.currency)}</td>
                    <td>
                      <span class={`badge ${order.commissionStatus}`}>{t(COMMISSION_STATUS[order.commissionStatus] ?? 'status.pending')}</span>
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
