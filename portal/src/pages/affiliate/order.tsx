import { Fragment } from 'preact';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { CommissionExplanation } from '../../components/commission-explanation.js';
import { STATUS_MESSAGES } from '../../statuses.js';
import { SUB_IDS, SUB_ID_NAMES } from '../../components/sub-id-picker.js';

/** One of the affiliate's orders (by its network id): its facts, its items, and how its commission was computed. */
export function OrderDetail({ id }: { id: string }) {
  const { t, money, date } = useMessages();
  const order = useQuery({
    queryKey: ['order', id],
    queryFn: async () => {
      const found = ok(await api.GET('/affiliate/orders/{id}', { params: { path: { id } } }));
      return (found.find((entry) => entry.data.id === id) ?? found[0])!.data;
    },
  });
  const explanation = useQuery({
    queryKey: ['order-commission', id],
    queryFn: async () => ok(await api.GET('/affiliate/orders/{id}/commission', { params: { path: { id } } })).data,
  });
  return (
    <>
      <p>
        <Link href="/orders">{t('order.back')}</Link>
      </p>
      {/* The heading stands while the order loads, and when it is not found. */}
      <h1>{t('order.title', { order: order.data?.orderId ?? id })}</h1>
      <QueryState query={order}>
        {(o) => (
          <>
            <dl class="facts">
              <dt>{t('orders.brand')}</dt>
              <dd>
                <Link href={`/brands/${encodeURIComponent(o.organizationId)}`}>{o.brandName ?? t('orders.aBrand')}</Link>
              </dd>
              <dt>{t('orders.date')}</dt>
              <dd>{date(o.createdAt)}</dd>
              <dt>{t('orders.value')}</dt>
              <dd>{money(o.value, o.currency)}</dd>
              <dt>{t('orders.commission')}</dt>
              <dd data-testid="order-commission">
                {money(o.commission, o.currency)} <span class={`badge ${o.commissionStatus}`}>{t(STATUS_MESSAGES[o.commissionStatus])}</span>
              </dd>
              {o.channel && (
                <>
                  <dt>{t('links.channel')}</dt>
                  <dd>{o.channel.name}</dd>
                </>
              )}
              {SUB_IDS.map(
                (name) =>
                  o.subIds?.[name] !== undefined && (
                    <Fragment key={name}>
                      <dt>{t(SUB_ID_NAMES[name])}</dt>
                      <dd class="wrap" data-testid={`order-${name}`}>
                        {o.subIds[name]}
                      </dd>
                    </Fragment>
                  ),
              )}
            </dl>
            {o.items.length > 0 && (
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('order.item')}</th>
                    <th scope="col">{t('order.itemId')}</th>
                    <th scope="col">{t('order.price')}</th>
                    <th scope="col">{t('order.quantity')}</th>
                  </tr>
                </thead>
                <tbody>
                  {o.items.map((item, i) => (
                    <tr key={i}>
                      <th scope="row" class="wrap">
                        #{i + 1} {item.name}
                      </th>
                      <td class="wrap">{item.id}</td>
                      <td>{money(item.price, o.currency)}</td>
                      <td>{item.quantity}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </QueryState>
      {/* Once the order is there: one thing loads at a time, and a missing order says so once. */}
      {order.data && <QueryState query={explanation}>{(e) => <CommissionExplanation explanation={e} />}</QueryState>}
    </>
  );
}
