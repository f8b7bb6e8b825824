import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { BrandScores } from '../../components/brand-scores.js';

const PAGE_SIZE = 20;

interface Filters {
  search: string;
  category: string;
  access: '' | 'public' | 'private';
  highlighted: boolean;
  exclusive: boolean;
}
const NO_FILTER: Filters = { search: '', category: '', access: '', highlighted: false, exclusive: false };
const APPROVAL: Record<'approved' | 'pending' | 'declined', MessageKey> = { approved: 'brands.askApproved', pending: 'brands.askPending', declined: 'brands.askDeclined' };

/** The brands the affiliate can work with: filters, commission, access; and asking a private brand for approval. */
export function Brands() {
  const { t, number, money, refusal } = useMessages();
  const [filters, setFilters] = useState<Filters>(NO_FILTER);
  const [page, setPage] = useState(1);
  const brands = useQuery({
    queryKey: ['brands', filters, page],
    queryFn: async () =>
      ok(
        await api.GET('/affiliate/brands', {
          params: {
            query: {
              page,
              limit: PAGE_SIZE,
              ...(filters.search && { search: filters.search }),
              ...(filters.category && { categories: [filters.category] }),
              ...(filters.access && { isPublic: filters.access === 'public' }),
              ...(filters.highlighted && { isHighlight: true }),
              ...(filters.exclusive && { isExclusive: true }),
            },
          },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const ask = useMutation({
    mutationFn: async (id: string) => ok(await api.POST('/affiliate/brands/{id}/approval-request', { params: { path: { id } } })).data,
  });
  return (
    <>
      <h1>{t('brands.title')}</h1>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          setFilters({
            search: fieldText(form, 'search'),
            category: fieldText(form, 'category').trim(),
            access: fieldText(form, 'access') as Filters['access'],
            highlighted: fieldText(form, 'highlighted') === 'on',
            exclusive: fieldText(form, 'exclusive') === 'on',
          });
          setPage(1);
        }}
      >
        <label>
          {t('common.search')}
          <input name="search" type="search" defaultValue={filters.search} />
        </label>
        <label>
          {t('brands.category')}
          <input name="category" defaultValue={filters.category} size={12} />
        </label>
        <div class="field">
          <label for="brand-access">{t('brands.access')}</label>
          <select id="brand-access" name="access" defaultValue={filters.access}>
            <option value="">{t('brands.anyAccess')}</option>
            <option value="public">{t('brands.public')}</option>
            <option value="private">{t('brands.approved')}</option>
          </select>
        </div>
        <label class="check">
          <input name="highlighted" type="checkbox" defaultChecked={filters.highlighted} />
          {t('brands.highlighted')}
        </label>
        <label class="check">
          <input name="exclusive" type="checkbox" defaultChecked={filters.exclusive} />
          {t('brands.exclusive')}
        </label>
        <button type="submit">{t('common.search')}</button>
      </form>
      <QueryState query={brands}>
        {({ data, pagination }) =>
          data.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('brands.title')}</th>
                    <th scope="col">{t('brands.commission')}</th>
                    <th scope="col">{t('brands.access')}</th>
                    <th scope="col">{t('brands.scores')}</th>
                    <th scope="col"><span class="visually-hidden">{t('brands.makeLink')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((brand) => (
                    <tr key={brand.id} data-testid={`brand-${brand.id}`}>
                      <th scope="row">
                        <Link href={`/brands/${encodeURIComponent(brand.id)}`}>{brand.name}</Link>
                        {brand.network.trait.isHighlight && <span class="badge approved"> {t('brands.highlighted')}</span>}
                      </th>
                      <td>{brand.commission.transfer === 'cps' ? t('profile.cps', { percent: number(brand.commission.value) }) : t('profile.cpa', { amount: money(brand.commission.value, brand.currency) })}</td>
                      <td>{brand.network.isPublic ? t('brands.public') : t('brands.approved')}</td>
                      <td>
                        <BrandScores rating={brand.network.rating} />
                      </td>
                      <td>
                        <Link href={`/links?brand=${encodeURIComponent(brand.id)}`}>{t('brands.makeLink')}</Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={page} pages={Math.max(1, Math.ceil(pagination.total / PAGE_SIZE))} onPage={setPage} />
            </>
          )
        }
      </QueryState>
      <h2>{t('brands.askTitle')}</h2>
      <p class="hint">{t('brands.askHint')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          ask.mutate(fieldText(e.currentTarget, 'brandId').trim());
        }}
      >
        <label>
          {t('brands.brandId')}
          <input name="brandId" required pattern="[0-9a-fA-F-]{36}" size={38} />
        </label>
        <button type="submit" disabled={ask.isPending}>
          {t('brands.ask')}
        </button>
      </form>
      {ask.isError && <p role="alert" class="error">{refusal(ask.error)}</p>}
      {ask.data && <p role="status">{t(APPROVAL[ask.data.status])}</p>}
    </>
  );
}
