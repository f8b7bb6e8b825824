import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { AffiliatePicker } from '../../components/affiliate-picker.js';

const PAGE_SIZE = 25;
/** What the service accepts as a code (it says what to fix when it refuses one). */
const CODE_PATTERN = '[A-Za-z0-9_\\-]{3,40}';

/** The brand's coupon codes given to affiliates: give one to any affiliate it may (found by name or id), or give it to another; take one back. */
export function BrandCoupons() {
  const { t, date, refusal } = useMessages();
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const [given, setGiven] = useState('');
  const coupons = useQuery({
    queryKey: ['brand-coupons', page],
    queryFn: async () => ok(await api.GET('/advertiser/coupons', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['brand-coupons'] });
  const give = useMutation({
    mutationFn: async ({ code, affiliateId }: { code: string; affiliateId: string }) => ok(await api.PUT('/advertiser/coupons/{code}', { params: { path: { code } }, body: { affiliateId } })).data,
    onSuccess: (coupon) => {
      setGiven(coupon.code);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async (code: string) => ok(await api.DELETE('/advertiser/coupons/{code}', { params: { path: { code } } })),
    onSuccess: refresh,
  });
  const failure = give.error ?? remove.error;
  return (
    <>
      <h1>{t('coupons.title')}</h1>
      <p class="hint">{t('brandCodes.hint')}</p>
      <form
        class="stacked"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          give.mutate({ code: fieldText(form, 'code').trim(), affiliateId: fieldText(form, 'affiliateId') });
        }}
      >
        <h2>{t('coupons.give')}</h2>
        <div class="field">
          <label for="coupon-code">{t('coupons.code')}</label>
          <input id="coupon-code" name="code" required pattern={CODE_PATTERN} maxLength={40} autoComplete="off" aria-describedby="coupon-code-hint" />
          <span id="coupon-code-hint" class="hint">
            {t('coupons.codeHint')}
          </span>
        </div>
        <AffiliatePicker id="coupon-affiliate" />
        <button type="submit" disabled={give.isPending}>
          {t('coupons.giveButton')}
        </button>
        {given && !give.isError && <p role="status">{t('coupons.given', { code: given })}</p>}
      </form>
      {failure && (
        <p role="alert" class="error">
          {refusal(failure)}
        </p>
      )}
      <h2>{t('coupons.list')}</h2>
      <QueryState query={coupons}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('coupons.none')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('coupons.code')}</th>
                    <th scope="col">{t('coupons.affiliate')}</th>
                    <th scope="col">{t('coupons.campaign')}</th>
                    <th scope="col">{t('coupons.since')}</th>
                    <th scope="col">
                      <span class="visually-hidden">{t('team.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((coupon) => (
                    <tr key={coupon.code} data-testid={`coupon-${coupon.code}`}>
                      <th scope="row">
                        <code>{coupon.code}</code>
                      </th>
                      <td>
                        {coupon.affiliateName ?? coupon.affiliateId} <span class="hint">{coupon.affiliateId}</span>
                      </td>
                      <td>{coupon.campaignId ?? '—'}</td>
                      <td>{date(coupon.updatedAt)}</td>
                      <td class="actions">
                        <ConfirmButton
                          class="danger"
                          disabled={remove.isPending}
                          aria-label={t('coupons.removeNamed', { code: coupon.code })}
                          question={t('coupons.confirmRemove', { code: coupon.code })}
                          onConfirm={() => remove.mutate(coupon.code)}
                        >
                          {t('coupons.remove')}
                        </ConfirmButton>
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
