import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { STATUS_MESSAGES, type CommissionStatus } from '../../statuses.js';
import { SubIdPicker, subIdFilterOf, subIdQuery, type SubIdFilter } from '../../components/sub-id-picker.js';

const PAGE_SIZE = 25;

interface Filters {
  from: string;
  to: string;
  commissionStatus: CommissionStatus | '';
  /** The orders of one payout (opened from the payouts page). */
  payoutId: string;
  /** The orders placed with one of the affiliate's coupon codes (opened from My codes). */
  coupon: string;
  /** The orders whose click carried this sub-id. */
  subId: SubIdFilter;
}

/** The filters as the API takes them: dates are whole days in the browser's time zone. */
function queryOf(filters: Filters) {
  return {
    ...(filters.from && { from: filters.from }),
    ...(filters.to && { to: filters.to }),
    ...((filters.from || filters.to) && { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
    ...(filters.commissionStatus && { commissionStatus: [filters.commissionStatus] }),
    ...(filters.payoutId && { payoutId: filters.payoutId }),
    ...(filters.coupon && { coupon: filters.coupon }),
    ...subIdQuery(filters.subId),
  };
}

/** The affiliate's orders, newest first, with their commission and its status (each opens its explanation); totals and a CSV of the same filters. */
export function Orders() {
  const { t, money, date } = useMessages();
  const [filters, setFilters] = useState<Filters>(() => {
    const search = new URLSearchParams(window.location.search);
    return { from: '', to: '', commissionStatus: '', payoutId: search.get('payout') ?? '', coupon: search.get('coupon') ?? '', subId: { name: '', value: '' } };
  });
  const [page, setPage] = useState(1);
  const query = queryOf(filters);
  const orders = useQuery({
    queryKey: ['orders', filters, page],
    queryFn: async () => {
      const result = await api.GET('/affiliate/orders', { params: { query: { ...query, page, limit: PAGE_SIZE } } });
      return { list: ok(result), total: Number(result.response.headers.get('x-total-count') ?? 0) };
    },
    placeholderData: (previous) => previous,
  });
  // The balance takes the date range (not the status): its totals are per status already.
  const totals = useQuery({
    queryKey: ['balance', filters.from, filters.to],
    queryFn: async () => ok(await api.GET('/affiliate/balance', { params: { query: { from: query.from, to: query.to, timezone: query.timezone } } })).data,
  });
  const csv = `/affiliate/orders.csv?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
  return (
    <>
      <h1>{t('orders.title')}</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          setFilters({ ...filters, from: fieldText(form, 'from'), to: fieldText(form, 'to'), commissionStatus: fieldText(form, 'status') as Filters['commissionStatus'], subId: subIdFilterOf(form) });
          setPage(1);
        }}
      >
        <label>
          {t('orders.from')}
          <input name="from" type="date" defaultValue={filters.from} />
        </label>
        <label>
          {t('orders.to')}
          <input name="to" type="date" defaultValue={filters.to} />
        </label>
        <div class="field">
          <label for="orders-status">{t('orders.commissionStatus')}</label>
          <select id="orders-status" name="status" defaultValue={filters.commissionStatus}>
            <option value="">{t('orders.anyStatus')}</option>
            {Object.entries(STATUS_MESSAGES).map(([status, key]) => (
              <option key={status} value={status}>
                {t(key)}
              </option>
            ))}
          </select>
        </div>
        <SubIdPicker id="orders" filter={filters.subId} />
        <button type="submit">{t('orders.filter')}</button>
        <a class="button secondary" href={csv} download="orders.csv">
          {t('orders.csv')}
        </a>
      </form>
      {filters.payoutId && (
        <p role="status">
          {t('orders.ofPayout', { payout: filters.payoutId })}{' '}
          <button type="button" class="secondary" onClick={() => setFilters({ ...filters, payoutId: '' })}>
            {t('orders.allPayouts')}
          </button>
        </p>
      )}
      {filters.coupon && (
        <p role="status">
          {t('orders.ofCoupon', { code: filters.coupon })}{' '}
          <button type="button" class="secondary" onClick={() => setFilters({ ...filters, coupon: '' })}>
            {t('orders.allPayouts')}
          </button>
        </p>
      )}
      <QueryState query={totals}>
        {(balances) =>
          balances.length > 0 && (
            <table class="totals">
              <caption>{t('orders.totals')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('balance.currency')}</th>
                  {Object.values(STATUS_MESSAGES).map((key) => (
                    <th key={key} scope="col">
                      {t(key)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {balances.map((balance) => (
                  <tr key={balance.currency} data-testid={`totals-${balance.currency}`}>
                    <th scope="row">{balance.currency}</th>
                    {(Object.keys(STATUS_MESSAGES) as CommissionStatus[]).map((status) => (
                      <td key={status}>
                        {money(balance[status].commission, balance.currency)}
                        <br />
                        <span class="hint">{t('orders.count', { count: balance[status].orders })}</span>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
      <QueryState query={orders}>
        {({ list, total }) =>
          list.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('orders.order')}</th>
                    <th scope="col">{t('orders.brand')}</th>
                    <th scope="col">{t('orders.date')}</th>
                    <th scope="col">{t('links.channel')}</th>
                    <th scope="col">{t('orders.value')}</th>
                    <th scope="col">{t('orders.commission')}</th>
                    <th scope="col">{t('orders.status')}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map(({ data: order }) => (
                    <tr key={order.id} data-testid={`order-${order.orderId}`} data-id={order.id}>
                      <th scope="row">
                        <Link href={`/orders/${encodeURIComponent(order.id)}`}>{order.orderId}</Link>
                      </th>
                      <td>
                        <Link href={`/brands/${encodeURIComponent(order.organizationId)}`}>{order.brandName ?? t('orders.aBrand')}</Link>
                      </td>
                      <td>{date(order.createdAt)}</td>
                      <td>{order.channel?.name ?? (order.coupon ? t('orders.byCoupon', { code: order.coupon }) : '—')}</td>
                      <td>{money(order.value, order.currency)}</td>
                      <td>{money(order.commission, order.currency)}</td>
                      <td>
                        <span class={`badge ${order.commissionStatus}`}>{t(STATUS_MESSAGES[order.commissionStatus])}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={page} pages={Math.max(1, Math.ceil(total / PAGE_SIZE))} onPage={setPage} />
            </>
          )
        }
      </QueryState>
    </>
  );
}
