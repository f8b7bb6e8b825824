import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { CopyButton } from '../../components/copy-button.js';

const PAGE_SIZE = 25;

/** The coupon codes brands gave the affiliate, each with its orders. */
export function MyCodes() {
  const { t, date } = useMessages();
  const [page, setPage] = useState(1);
  const coupons = useQuery({
    queryKey: ['my-coupons', page],
    queryFn: async () => ok(await api.GET('/affiliate/coupons', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  return (
    <>
      <h1>{t('coupons.mine')}</h1>
      <p class="hint">{t('coupons.affiliateHint')}</p>
      <QueryState query={coupons}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('coupons.noneMine')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('coupons.code')}</th>
                    <th scope="col">{t('coupons.brand')}</th>
                    <th scope="col">{t('coupons.since')}</th>
                    <th scope="col">
                      <span class="visually-hidden">{t('team.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((coupon) => (
                    <tr key={`${coupon.organizationId}-${coupon.code}`} data-testid={`my-coupon-${coupon.code}`}>
                      <th scope="row">
                        <code>{coupon.code}</code> <CopyButton text={coupon.code} />
                      </th>
                      <td>{coupon.brandName ?? coupon.organizationId}</td>
                      <td>{date(coupon.createdAt)}</td>
                      <td class="actions">
                        <Link href={`/orders?coupon=${encodeURIComponent(coupon.code)}`}>{t('coupons.orders')}</Link>
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
