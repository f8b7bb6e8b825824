import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { MoneyField, moneyField } from '../../components/money-field.js';
import { ClaimStatusBadge, CLAIM_FILTERS, type ClaimFilter } from '../affiliate/claim-status.js';
import type { components } from '../../../../packages/client/index.js';

const PAGE_SIZE = 20;
type Claim = components['schemas']['Claim'];
type Answer = { id: string; status: 'accepted'; value?: number } | { id: string; status: 'declined'; reason: string };

/** Affiliates' claims of the brand's orders its tracking missed: open ones are accepted (at a corrected value if need be) or declined with a reason. */
export function BrandClaims() {
  const { t, money, date, refusal } = useMessages();
  const queries = useQueryClient();
  const [status, setStatus] = useState<ClaimFilter>('open');
  const [page, setPage] = useState(1);
  const claims = useQuery({
    queryKey: ['brand-claims', status, page],
    queryFn: async () => ok(await api.GET('/advertiser/claims', { params: { query: { page, limit: PAGE_SIZE, ...(status !== 'all' && { status: [status] }) } } })),
    placeholderData: (previous) => previous,
  });
  const answer = useMutation({
    mutationFn: async ({ id, ...body }: Answer) => ok(await api.PATCH('/advertiser/claims/{id}', { params: { path: { id } }, body })).data,
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['brand-claims'] });
      void queries.invalidateQueries({ queryKey: ['conversions'] });
    },
  });
  return (
    <>
      <h1>{t('claims.title')}</h1>
      <p class="hint">{t('claims.brandHint')}</p>
      {answer.isError && (
        <p role="alert" class="error">
          {refusal(answer.error)}
        </p>
      )}
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
                    <th scope="col">{t('claims.affiliate')}</th>
                    <th scope="col">{t('claims.orderDate')}</th>
                    <th scope="col">{t('claims.claimed')}</th>
                    <th scope="col">{t('claims.status')}</th>
                    <th scope="col">{t('claims.answer')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((claim) => (
                    <tr key={claim.id} data-testid={`claim-${claim.orderId}`}>
                      <th scope="row">
                        {claim.orderId}
                        {claim.note && <span class="hint note">{claim.note}</span>}
                      </th>
                      <td>{claim.affiliateName ?? claim.affiliateId}</td>
                      <td>{date(claim.orderedAt)}</td>
                      <td>{money(claim.value, claim.currency)}</td>
                      <td>
                        <ClaimStatusBadge status={claim.status} />
                      </td>
                      <td>{claim.status === 'open' ? <AnswerForms claim={claim} busy={answer.isPending} onAnswer={(a) => answer.mutate(a)} /> : <Answered claim={claim} />}</td>
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

/** What an answered claim came to. */
function Answered({ claim }: { claim: Claim }) {
  const { t, money } = useMessages();
  if (claim.status === 'accepted') {
    return (
      <>
        {t('claims.acceptedAt', { amount: money(claim.acceptedValue ?? claim.value, claim.currency) })}
        {claim.resolvedBy === 'network' && ` ${t('claims.byNetwork')}`}
      </>
    );
  }
  return <>{t('claims.reason', { reason: claim.reason ?? '' })}</>;
}

/** Accept (with the actual value if the claimed one is wrong) or decline saying why. */
function AnswerForms({ claim, busy, onAnswer }: { claim: Claim; busy: boolean; onAnswer: (answer: Answer) => void }) {
  const { t, date, locale } = useMessages();
  const [invalid, setInvalid] = useState(false);
  const id = claim.id;
  return (
    <div class="claim-answer">
      <p class="hint">{t('claims.waitsUntil', { date: date(claim.autoAcceptAt) })}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const cents = moneyField(e.currentTarget, 'value', locale);
          onAnswer({ id, status: 'accepted', ...(cents !== null && { value: cents }) });
        }}
      >
        <MoneyField id={`claim-${id}-value`} name="value" label={t('claims.correctValue')} currency={claim.currency} positive />
        <button type="submit" disabled={busy} aria-label={t('claims.acceptClaim', { order: claim.orderId })}>
          {t('claims.accept')}
        </button>
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const reason = fieldText(e.currentTarget, 'reason').trim();
          setInvalid(!reason);
          if (!reason) return;
          onAnswer({ id, status: 'declined', reason });
        }}
      >
        <label>
          {t('claims.declineReason')}
          <input name="reason" maxLength={2000} aria-invalid={invalid} />
        </label>
        {invalid && <span class="error">{t('claims.reasonRequired')}</span>}
        <button type="submit" disabled={busy} aria-label={t('claims.declineClaim', { order: claim.orderId })}>
          {t('claims.decline')}
        </button>
      </form>
    </div>
  );
}
