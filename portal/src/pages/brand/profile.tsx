import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { MoneyField, moneyField } from '../../components/money-field.js';
import { NetworkTermsText } from '../../components/network-terms.js';
import { fieldText } from '../../forms.js';
import type { paths } from '../../../../packages/client/index.js';

type Profile = paths['/advertiser/brand']['get']['responses'][200]['content']['application/json']['data'];
type Change = NonNullable<paths['/advertiser/brand']['patch']['requestBody']>['content']['application/json'];

/** A percentage as typed ("7,5" or "7.5", two decimals at most) to the number the API takes, or undefined. */
function percentOf(text: string): number | undefined {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  // Hundredths as an integer first, so 7.5 is exactly what was typed.
  const hundredths = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return hundredths <= 10_000 ? hundredths / 100 : undefined;
}

/** The brand's profile as affiliates and redirects use it: site, domains, click id parameter, commission rule. */
export function BrandProfile() {
  const messages = useMessages();
  const { t, money, number, date, locale, refusal } = messages;
  const queries = useQueryClient();
  const [invalid, setInvalid] = useState(false);
  // The kind of commission chosen on the form: a percentage is typed as one, an amount in a money field.
  const [transfer, setTransfer] = useState<Profile['commission']['transfer'] | undefined>(undefined);
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const save = useMutation({
    mutationFn: async (body: Change) => ok(await api.PATCH('/advertiser/brand', { body })).data,
    onSuccess: (data) => queries.setQueryData(['brand'], data),
  });
  const describe = (commission: Profile['commission'], currency: string) =>
    commission.transfer === 'cps' ? t('profile.cps', { percent: number(commission.value) }) : t('profile.cpa', { amount: money(commission.value, currency) });
  const submit = (form: HTMLFormElement, brand: Profile) => {
    const transfer = fieldText(form, 'transfer') === 'cpa' ? 'cpa' : 'cps';
    // The money field refused an unreadable amount before the form was sent.
    const value = transfer === 'cps' ? percentOf(fieldText(form, 'commission')) : (moneyField(form, 'commissionAmount', locale) ?? undefined);
    setInvalid(value === undefined);
    if (value === undefined) return;
    // The domains beside the site's (the profile lists the site's first), each once.
    const domains = [...new Set(fieldText(form, 'domains').split(/\s+/).filter(Boolean))];
    const homeUrl = fieldText(form, 'homeUrl').trim();
    // The commission only when it was changed: sending the one in force again would replace a change waiting for its notice.
    const changed = transfer !== brand.commission.transfer || value !== brand.commission.value;
    save.mutate({
      site: fieldText(form, 'site').trim() || brand.site,
      homeUrl: homeUrl || null,
      domains,
      clickIdParam: fieldText(form, 'clickIdParam').trim() || brand.clickIdParam,
      validationDays: Number(fieldText(form, 'validationDays') || brand.validationDays),
      claimAutoAcceptDays: Number(fieldText(form, 'claimAutoAcceptDays') || brand.claimAutoAcceptDays),
      attributionPriority: fieldText(form, 'attributionPriority') === 'click' ? 'click' : 'coupon',
      termsNoticeDays: Number(fieldText(form, 'termsNoticeDays') || brand.termsNoticeDays),
      ...(changed && { commission: { transfer, value } }),
    });
  };
  return (
    <QueryState query={profile}>
      {(brand) => (
        <>
          <h1>{brand.name}</h1>
          <dl class="facts wraps">
            <dt>{t('profile.visibility')}</dt>
            <dd>{t(brand.isPublic ? 'brands.public' : 'profile.private')}</dd>
            <dt>{t('profile.currency')}</dt>
            <dd>{brand.currency}</dd>
            <dt>{t('profile.attribution')}</dt>
            <dd>{t('profile.days', { days: brand.attributionWindowDays })}</dd>
            <dt>{t('profile.validation')}</dt>
            <dd>{t('profile.validationDaysValue', { days: brand.validationDays })}</dd>
            <dt>{t('profile.claimDays')}</dt>
            <dd>{t('profile.claimDaysValue', { days: brand.claimAutoAcceptDays })}</dd>
            <dt>{t('profile.priority')}</dt>
            <dd>{t(brand.attributionPriority === 'click' ? 'profile.priorityClick' : 'profile.priorityCoupon')}</dd>
            <dt>{t('profile.commission')}</dt>
            <dd data-testid="profile-commission">{describe(brand.commission, brand.currency)}</dd>
            {brand.upcomingCommission && (
              <>
                <dt>{t('profile.upcomingCommission')}</dt>
                <dd data-testid="profile-upcoming-commission">{t('profile.upcomingCommissionValue', { commission: describe(brand.upcomingCommission.commission, brand.currency), date: date(brand.upcomingCommission.effectiveAt) })}</dd>
              </>
            )}
            <dt>{t('profile.termsNotice')}</dt>
            <dd>{t('profile.noticeDays', { days: brand.termsNoticeDays })}</dd>
            <dt>{t('terms.label')}</dt>
            <dd data-testid="profile-network-terms">
              <NetworkTermsText terms={brand.networkTerms} currency={brand.currency} />
            </dd>
          </dl>
          <p class="hint">{t('terms.setByNetwork')}</p>
          <form
            class="stacked profile-form"
            onSubmit={(e) => {
              e.preventDefault();
              submit(e.currentTarget, brand);
            }}
          >
            <h2>{t('profile.edit')}</h2>
            <label>
              {t('profile.site')}
              <input name="site" inputMode="url" autocapitalize="none" autocorrect="off" spellcheck={false} required maxLength={2048} defaultValue={brand.site} />
            </label>
            <label>
              {t('profile.homeUrl')}
              <input name="homeUrl" type="url" defaultValue={brand.homeUrl} aria-describedby="home-hint" />
              <span id="home-hint" class="hint">
                {t('profile.homeHint')}
              </span>
            </label>
            <label>
              {t('profile.domains')}
              <textarea name="domains" rows={3} defaultValue={brand.domains.slice(1).join('\n')} aria-describedby="domains-hint" />
              <span id="domains-hint" class="hint">
                {t('profile.domainsHint')}
              </span>
            </label>
            <label>
              {t('profile.clickIdParam')}
              <input name="clickIdParam" required defaultValue={brand.clickIdParam} pattern="[A-Za-z0-9_.\-]{1,64}" />
            </label>
            <label>
              {t('profile.validation')}
              <input name="validationDays" type="number" inputMode="numeric" min={0} max={180} step={1} required defaultValue={String(brand.validationDays)} aria-describedby="validation-hint" />
              <span id="validation-hint" class="hint">
                {t('profile.validationHint')}
              </span>
            </label>
            <label>
              {t('profile.claimDays')}
              <input name="claimAutoAcceptDays" type="number" inputMode="numeric" min={30} max={120} step={1} required defaultValue={String(brand.claimAutoAcceptDays)} aria-describedby="claim-days-hint" />
              <span id="claim-days-hint" class="hint">
                {t('profile.claimDaysHint')}
              </span>
            </label>
            <div class="field">
              <label for="attribution-priority">{t('profile.priority')}</label>
              <select id="attribution-priority" name="attributionPriority" defaultValue={brand.attributionPriority} aria-describedby="priority-hint">
                <option value="coupon">{t('profile.priorityCoupon')}</option>
                <option value="click">{t('profile.priorityClick')}</option>
              </select>
              <span id="priority-hint" class="hint">
                {t('profile.priorityHint')}
              </span>
            </div>
            <fieldset>
              <legend>{t('profile.commission')}</legend>
              <label class="check">
                <input type="radio" name="transfer" value="cps" checked={(transfer ?? brand.commission.transfer) === 'cps'} onChange={() => setTransfer('cps')} />
                {t('profile.cpsChoice')}
              </label>
              <label class="check">
                <input type="radio" name="transfer" value="cpa" checked={(transfer ?? brand.commission.transfer) === 'cpa'} onChange={() => setTransfer('cpa')} />
                {t('profile.cpaChoice', { currency: brand.currency })}
              </label>
              {(transfer ?? brand.commission.transfer) === 'cps' ? (
                <label>
                  {t('profile.percentValue')}
                  <input name="commission" inputMode="decimal" required aria-invalid={invalid} defaultValue={brand.commission.transfer === 'cps' ? number(brand.commission.value) : ''} />
                </label>
              ) : (
                <MoneyField name="commissionAmount" label={t('profile.amountValue')} currency={brand.currency} required defaultCents={brand.commission.transfer === 'cpa' ? brand.commission.value : null} />
              )}
            </fieldset>
            {invalid && (
              <p role="alert" class="error">
                {t('profile.commissionInvalid')}
              </p>
            )}
            <p class="hint">{t('profile.commissionHint')}</p>
            <label>
              {t('profile.termsNotice')}
              <input name="termsNoticeDays" type="number" inputMode="numeric" min={0} max={90} step={1} required defaultValue={String(brand.termsNoticeDays)} aria-describedby="notice-hint" />
              <span id="notice-hint" class="hint">
                {t('profile.termsNoticeHint')}
              </span>
            </label>
            {save.isError && (
              <p role="alert" class="error">
                {refusal(save.error)}
              </p>
            )}
            {save.isSuccess && <p role="status">{t('profile.saved')}</p>}
            <button type="submit" disabled={save.isPending}>
              {t('common.save')}
            </button>
          </form>
        </>
      )}
    </QueryState>
  );
}
