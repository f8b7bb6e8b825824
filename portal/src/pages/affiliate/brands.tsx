import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';

const PAGE_SIZE = 20;

/** The brands the affiliate can work with: search, commission, access. */
export function Brands() {
  const { t, number } = useMessages();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const brands = useQuery({
    queryKey: ['brands', search, page],
    queryFn: async () => ok(await api.GET('/affiliate/brands', { params: { query: { page, limit: PAGE_SIZE, ...(search && { search }) } } })),
  });
  return (
    <>
      <h1>{t('brands.title')}</h1>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(fieldText(e.currentTarget, 'search'));
          setPage(1);
        }}
      >
        <label>
          {t('common.search')}
          <input name="search" type="search" defaultValue={search} />
        </label>
        <button type="submit">{t('common.search')}</button>
      </form>
      <QueryState query={brands}>
        {({ data, pagination }) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('brands.title')}</th>
                  <th scope="col">{t('brands.commission')}</th>
                  <th scope="col">{t('brands.access')}</th>
                  <th scope="col"><span class="visually-hidden">{t('brands.makeLink')}</span></th>
                </tr>
              </thead>
              <tbody>
                {data.map((brand) => (
                  <tr key={brand.id}>
                    <th scope="row">{brand.name}</th>
                    <td>{brand.commission.transfer === 'cps' ? `${number(brand.commission.value)} %` : number(brand.commission.value)}</td>
                    <td>{brand.network.isPublic ? t('brands.public') : t('brands.approved')}</td>
                    <td>
                      <Link href={`/links?brand=${encodeURIComponent(brand.id)}`}>{t('brands.makeLink')}</Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={page} pages={Math.max(1, Math.ceil(pagination.total / PAGE_SIZE))} onPage={setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
