import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { MoneyField, moneyField } from '../../components/money-field.js';
import { ClaimStatusBadge, CLAIM_FILTERS, type ClaimFilter } from './claim-status.js';
import type { paths } from '../../../../packages/client/index.js';

const PAGE_SIZE = 20;
type ClaimBody = paths['/affiliate/claims']['post']['requestBody']['content']['application/json'];

/** A date typed in the form (YYYY-MM-DD) as the start of that day where the person is: never in the future. */
const startOfDay = (day: string) => new Date(`${day}T00:00:00`).toISOString();
const today = () => new Date().toLocaleDateString('sv');

/** The affiliate claims sales its links brought that the tracking missed, and follows each claim's answer. */
export function Claims() {
  const { t, money, date, locale, refusal } = useMessages();
  const queries = useQueryClient();
  const [search, setSearch] = useState('');
  const [brandId, setBrandId] = useState('');
  const [status, setStatus] = useState<ClaimFilter>('all');
  const [page, setPage] = useState(1);
  const brands = useQuery({
    queryKey: ['brands', 'choice', search],
    queryFn: async () => ok(await api.GET('/affiliate/brands', { params: { query: { limit: 20, ...(search && { search }) } } })).data,
    placeholderData: (previous) => previous,
  });
  const claims = useQuery({
    queryKey: ['claims', status, page],
    queryFn: async () => ok(await api.GET('/affiliate/claims', { params: { query: { page, limit: PAGE_SIZE, ...(status !== 'all' && { status: [status] }) } } })),
    placeholderData: (previous) => previous,
  });
  const file = useMutation({
    mutationFn: async (body: ClaimBody) => ok(await api.POST('/affiliate/claims', { body })).data,
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['claims'] }),
  });
  const submit = (form: HTMLFormElement) => {
    const cents = moneyField(form, 'value', locale);
    if (cents === null) return;
    const text = (name: string) => fieldText(form, name).trim();
    file.mutate(
      {
        organizationId: brandId,
        orderId: text('orderId'),
        orderedAt: startOfDay(text('orderedAt')),
        value: cents,
        ...(text('linkCode') && { linkCode: text('linkCode') }),
        ...(text('note') && { note: text('note') }),
      },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <>
      <h1>{t('claims.title')}</h1>
      <p class="hint">{t('claims.hint')}</p>
      <QueryState query={brands}>
        {(list) => (
          <form
            class="stacked"
            onSubmit={(e) => {
              e.preventDefault();
              submit(e.currentTarget);
            }}
          >
            <h2>{t('claims.new')}</h2>
            <label>
              {t('claims.findBrand')}
              <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
            </label>
            <div class="field">
              <label for="claim-brand">{t('claims.brand')}</label>
              <select id="claim-brand" value={brandId} required onChange={(e) => setBrandId(e.currentTarget.value)}>
                <option value="">{t('claims.chooseBrand')}</option>
                {list.map((brand) => (
                  <option key={brand.id} value={brand.id}>
                    {brand.name}
                  </option>
                ))}
              </select>
            </div>
            <label>
              {t('claims.orderId')}
              <input name="orderId" required maxLength={200} pattern="[^\s]+" aria-describedby="claim-order-hint" />
              <span id="claim-order-hint" class="hint">
                {t('claims.orderIdHint')}
              </span>
            </label>
            <label>
              {t('claims.orderedAt')}
              <input name="orderedAt" type="date" required max={today()} />
            </label>
            <MoneyField id="claim-value" name="value" label={t('claims.value')} currency={list.find((brand) => brand.id === brandId)?.currency} required positive />
            <label>
              {t('claims.linkCode')}
              <input name="linkCode" maxLength={64} aria-describedby="claim-link-hint" />
              <span id="claim-link-hint" class="hint">
                {t('claims.linkCodeHint')}
              </span>
            </label>
            <label>
              {t('claims.note')}
              <textarea name="note" rows={3} maxLength={2000} />
            </label>
            <button type="submit" disabled={file.isPending || !brandId}>
              {t('claims.submit')}
            </button>
            {file.isError && (
              <p role="alert" class="error">
                {refusal(file.error)}
              </p>
            )}
            {file.isSuccess && <p role="status">{t('claims.sent', { order: file.data.orderId, date: date(file.data.autoAcceptAt) })}</p>}
          </form>
        )}
      </QueryState>
      <h2>{t('claims.list')}</h2>
      <form class="inline" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="claims-status">{t('claims.show')}</label>
        <select
          id="claims-status"
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value as ClaimFilter);
            setPage(1);
          }}
        >
          {CLAIM_FILTERS.map(([value, key]) => (
            <option key={value} value={value}>
              {t(key)}
            </option>
          ))}
        </select>
        </div>
      </form>
      <QueryState query={claims}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('claims.none')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('claims.order')}</th>
                    <th scope="col">{t('claims.brand')}</th>
                    <th scope="col">{t('claims.orderDate')}</th>
                    <th scope="col">{t('claims.claimed')}</th>
                    <th scope="col">{t('claims.status')}</th>
                    <th scope="col">{t('claims.answer')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((claim) => (
                    <tr key={claim.id} data-testid={`claim-${claim.orderId}`}>
                      <th scope="row">{claim.orderId}</th>
                      <td>{claim.brandName ?? claim.organizationId}</td>
                      <td>{date(claim.orderedAt)}</td>
                      <td>{money(claim.value, claim.currency)}</td>
                      <td>
                        <ClaimStatusBadge status={claim.status} />
                      </td>
                      <td>
                        {claim.status === 'open' && t('claims.waitsUntil', { date: date(claim.autoAcceptAt) })}
                        {claim.status === 'accepted' && (
                          <>
                            {t('claims.acceptedAt', { amount: money(claim.acceptedValue ?? claim.value, claim.currency) })}
                            {claim.resolvedBy === 'network' && ` ${t('claims.byNetwork')}`}
                            {claim.orderNetworkId && (
                              <>
                                {' · '}
                                <Link href="/orders">{t('claims.seeOrders')}</Link>
                              </>
                            )}
                          </>
                        )}
                        {claim.status === 'declined' && (
                          <>
                            {claim.resolvedBy === 'network' && `${t('claims.byNetwork')}. `}
                            {t('claims.reason', { reason: claim.reason ?? '' })}
                          </>
                        )}
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
