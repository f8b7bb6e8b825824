import { useState } from 'preact/hooks';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { lowestPrice } from '../../product-price.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { centsOf } from '../../../../src/lib/money-text.js';
import { percentText } from '../../components/network-terms.js';
import type { paths } from '../../../../packages/client/index.js';

const PAGE_SIZE = 20;

interface Filters {
  search: string;
  /** from:to in cents, as the API takes it; '' for any price. */
  price: string;
  availableOnly: boolean;
}

type Earning = paths['/affiliate/brands/{id}/earnings']['get']['responses'][200]['content']['application/json']['data'][number];

/** What each listed product earns the affiliate, asked once per brand on the page; by "brand/product". */
function useProductEarnings(products: ReadonlyArray<{ organizationId: string; id: string }>): Map<string, Earning> {
  const byBrand = new Map<string, string[]>();
  for (const product of products) byBrand.set(product.organizationId, [...(byBrand.get(product.organizationId) ?? []), product.id]);
  const answers = useQueries({
    queries: [...byBrand].map(([brandId, ids]) => ({
      queryKey: ['product-earnings', brandId, ids],
      queryFn: async () => ok(await api.GET('/affiliate/brands/{id}/earnings', { params: { path: { id: brandId }, query: { products: ids } } })).data,
    })),
  });
  const found = new Map<string, Earning>();
  [...byBrand.keys()].forEach((brandId, i) => {
    for (const earning of answers[i]?.data ?? []) found.set(`${brandId}/${earning.productId}`, earning);
  });
  return found;
}

/** The products of the brands the affiliate can work with: search, price range in money, availability. */
export function Products() {
  const { t, money, locale } = useMessages();
  const [filters, setFilters] = useState<Filters>({ search: '', price: '', availableOnly: true });
  const [page, setPage] = useState(1);
  const [priceError, setPriceError] = useState(false);
  const products = useQuery({
    queryKey: ['products', filters, page],
    queryFn: async () =>
      ok(
        await api.GET('/affiliate/products', {
          params: {
            query: {
              page,
              limit: PAGE_SIZE,
              ...(filters.search && { search: filters.search }),
              ...(filters.price && { price: filters.price }),
              ...(filters.availableOnly && { isAvailable: true }),
            },
          },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const earnings = useProductEarnings(products.data?.data ?? []);
  /** What one unit earns, with its share of the price ("R$ 19,49 · 15 %"), or a dash while unknown. */
  const earningText = (earning: Earning | undefined) =>
    earning === undefined ? '—' : t('products.earning', { amount: money(earning.commission, earning.currency), percent: earning.price > 0 ? percentText(Math.round((earning.commission * 10_000) / earning.price), locale) : '—' });
  return (
    <>
      <h1>{t('products.title')}</h1>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const from = centsOf(fieldText(form, 'from'), locale);
          const to = centsOf(fieldText(form, 'to'), locale);
          const invalid = from === undefined || to === undefined || (from !== '' && to !== '' && from > to);
          setPriceError(invalid);
          if (invalid) return;
          const price = from === '' && to === '' ? '' : `${from === '' ? 0 : from}:${to === '' ? Number.MAX_SAFE_INTEGER : to}`;
          setFilters({ search: fieldText(form, 'search'), price, availableOnly: fieldText(form, 'available') === 'on' });
          setPage(1);
        }}
      >
        <label>
          {t('common.search')}
          <input name="search" type="search" defaultValue={filters.search} />
        </label>
        <label>
          {t('products.priceFrom')}
          <input name="from" inputMode="decimal" size={8} aria-invalid={priceError} aria-describedby="price-hint" />
        </label>
        <label>
          {t('products.priceTo')}
          <input name="to" inputMode="decimal" size={8} aria-invalid={priceError} aria-describedby="price-hint" />
        </label>
        <label class="check">
          <input name="available" type="checkbox" defaultChecked={filters.availableOnly} />
          {t('products.availableOnly')}
        </label>
        <button type="submit">{t('common.search')}</button>
        <p id="price-hint" class={priceError ? 'error' : 'hint'} role={priceError ? 'alert' : undefined}>
          {t(priceError ? 'products.priceInvalid' : 'products.priceHint')}
        </p>
      </form>
      <QueryState query={products}>
        {({ data, count }) =>
          data.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <>
              <p class="hint">{t('products.count', { count })}</p>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('products.product')}</th>
                    <th scope="col">{t('products.price')}</th>
                    <th scope="col">{t('products.youEarn')}</th>
                    <th scope="col">{t('products.availability')}</th>
                    <th scope="col"><span class="visually-hidden">{t('brands.makeLink')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((product) => {
                    const price = lowestPrice(product);
                    return (
                      <tr key={`${product.organizationId}/${product.id}`}>
                        <th scope="row">
                          <a href={product.url} target="_blank" rel="noreferrer">
                            {product.name}
                          </a>
                          <Link class="hint note" href={`/brands/${encodeURIComponent(product.organizationId)}`}>
                            {product.brandName ?? t('orders.aBrand')}
                          </Link>
                        </th>
                        <td data-testid="product-price">{price === undefined ? '—' : money(price, product.currency)}</td>
                        <td data-testid="product-earning">{earningText(earnings.get(`${product.organizationId}/${product.id}`))}</td>
                        <td>
                          <span class={`badge ${product.available ? 'approved' : 'canceled'}`}>{t(product.available ? 'products.available' : 'products.unavailable')}</span>
                        </td>
                        <td>
                          <Link href={`/links?brand=${encodeURIComponent(product.organizationId)}&url=${encodeURIComponent(product.url)}`}>{t('brands.makeLink')}</Link>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <Pager page={page} pages={Math.max(1, Math.ceil(count / PAGE_SIZE))} onPage={setPage} />
            </>
          )
        }
      </QueryState>
    </>
  );
}
