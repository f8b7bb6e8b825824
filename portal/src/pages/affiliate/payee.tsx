import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { fieldText } from '../../forms.js';
import { isValidCpf, looksLikeCpf } from '../../cpf.js';
import { useSecondFactors } from '../account/second-factors-data.js';
import { needsFactor, useFactorGate } from '../account/factor-confirm.js';
import type { User } from '../../session.js';

const PAYEE_KEY = ['payee'] as const;
const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'random'] as const;
type PixKeyType = (typeof PIX_KEY_TYPES)[number];

/** The details saved, masked; undefined before any were saved (the service answers 404). */
export function usePayee(enabled: boolean) {
  return useQuery({
    queryKey: PAYEE_KEY,
    enabled,
    queryFn: async () => {
      const result = await api.GET('/affiliate/payee');
      if (result.response.status === 404) return null;
      return ok(result).data;
    },
  });
}

/** Where the affiliate is paid: its owners see the details masked and change them, confirming with the password or the second factor. */
export function Payee({ me }: { me: User }) {
  const { t, date, refusal } = useMessages();
  const owner = me.role === 'owner';
  const payee = usePayee(owner);
  const factors = useSecondFactors();
  const queries = useQueryClient();
  const [method, setMethod] = useState<'pix' | 'bank'>('pix');
  const [problem, setProblem] = useState('');
  const save = useMutation({
    mutationFn: async (body: Record<string, unknown>) => ok(await api.PUT('/affiliate/payee', { body: body as never })).data,
    onSuccess: (data) => queries.setQueryData(PAYEE_KEY, data),
  });
  const gate = useFactorGate();
  if (!owner) {
    return (
      <>
        <h1>{t('payee.title')}</h1>
        <p role="note">{t('payee.ownersOnly')}</p>
      </>
    );
  }
  const hasSecondFactor = Boolean(factors.data && (factors.data.totp.enabled || factors.data.passkeys.length > 0));
  const current = payee.data;

  const submit = (form: HTMLFormElement) => {
    const text = (name: string) => fieldText(form, name).trim();
    const country = text('country').toUpperCase();
    const taxId = text('taxId');
    const keyType = text('keyType') as PixKeyType;
    const key = text('key');
    // A CPF mistyped is refused here, before anything is sent.
    if (country === 'BR' && looksLikeCpf(taxId) && !isValidCpf(taxId)) return setProblem(t('payee.badCpf', { field: t('payee.taxId'), value: taxId }));
    if (method === 'pix' && keyType === 'cpf' && !isValidCpf(key)) return setProblem(t('payee.badCpf', { field: t('payee.key'), value: key }));
    setProblem('');
    const iban = text('iban');
    const body = {
      legalName: text('legalName'),
      country,
      ...(taxId && { taxId }),
      method:
        method === 'pix'
          ? { type: 'pix', keyType, key }
          : iban
            ? { type: 'bank', iban }
            : { type: 'bank', bankCode: text('bankCode'), branch: text('branch'), account: text('account'), accountType: text('accountType') || 'checking' },
      ...(hasSecondFactor ? (text('code') && { code: text('code') }) : { password: fieldText(form, 'password') }),
    };
    // Once saved, the form keeps nothing typed in full (keys, accounts, the password): the page shows the details masked.
    // Someone whose second factor is not current (a passkey, or a code not typed) confirms it, then the form is sent again.
    save.mutate(body, { onSuccess: () => form.reset(), onError: (error) => gate.caught(error, () => submit(form)) });
  };

  const failure = needsFactor(save.error) ? null : save.error;
  const fields = {
    legalName: t('payee.legalName'),
    country: t('payee.country'),
    taxId: t('payee.taxId'),
    'method.keyType': t('payee.keyType'),
    'method.key': t('payee.key'),
    'method.iban': t('payee.iban'),
    'method.bankCode': t('payee.bankCode'),
    'method.branch': t('payee.branch'),
    'method.account': t('payee.account'),
    'method.accountType': t('payee.accountType'),
    password: t('payee.password'),
  };
  const refused = problem || (failure ? refusal(failure, { fields }) : '');
  return (
    <>
      <h1>{t('payee.title')}</h1>
      <p class="hint">{t('payee.hint')}</p>
      <section aria-labelledby="payee-current">
        <h2 id="payee-current">{t('payee.current')}</h2>
        {payee.isPending ? (
          <p role="status">{t('common.loading')}</p>
        ) : payee.error ? (
          <p role="alert" class="error">{refusal(payee.error)}</p>
        ) : current ? (
          <>
            <dl class="facts" data-testid="payee-current">
              <dt>{t('payee.holder')}</dt>
              <dd>{current.legalName}</dd>
              <dt>{t('payee.countryShort')}</dt>
              <dd>{current.country}</dd>
              {current.taxId && (
                <>
                  <dt>{t('payee.taxId')}</dt>
                  <dd>{current.taxId}</dd>
                </>
              )}
              <dt>{t('payee.method')}</dt>
              <dd data-testid="payee-summary">{current.summary}</dd>
              <dt>{t('payee.updatedAt')}</dt>
              <dd>{date(current.updatedAt)}</dd>
            </dl>
            {current.held && <p role="note">{t('payee.held', { until: date(current.heldUntil) })}</p>}
          </>
        ) : (
          <p>{t('payee.none')}</p>
        )}
      </section>
      {save.isSuccess && <p role="status">{t('payee.saved')}</p>}
      <section aria-labelledby="payee-change">
        <h2 id="payee-change">{current ? t('payee.change') : t('payee.enter')}</h2>
        <form
          class="stacked"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit(event.currentTarget);
          }}
        >
          <label>
            {t('payee.legalName')}
            <input name="legalName" required maxLength={140} autocomplete="name" defaultValue={current?.legalName ?? ''} />
          </label>
          <label>
            {t('payee.country')}
            <input name="country" required maxLength={2} autocomplete="country" defaultValue={current?.country ?? 'BR'} />
          </label>
          <label>
            {t('payee.taxId')}
            <input name="taxId" maxLength={40} inputMode="text" />
            <span class="hint">{t('payee.taxIdHint')}</span>
          </label>
          <fieldset>
            <legend>{t('payee.method')}</legend>
            <label class="check">
              <input type="radio" name="method" value="pix" checked={method === 'pix'} onChange={() => setMethod('pix')} /> {t('payee.pix')}
            </label>
            <label class="check">
              <input type="radio" name="method" value="bank" checked={method === 'bank'} onChange={() => setMethod('bank')} /> {t('payee.bank')}
            </label>
          </fieldset>
          {method === 'pix' ? (
            <>
              <div class="field">
                <label for="payee-key-type">{t('payee.keyType')}</label>
                <select id="payee-key-type" name="keyType">
                  {PIX_KEY_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`payee.keyType.${type}`)}
                    </option>
                  ))}
                </select>
              </div>
              <label>
                {t('payee.key')}
                <input name="key" required maxLength={140} />
              </label>
            </>
          ) : (
            <>
              <label>
                {t('payee.iban')}
                <input name="iban" maxLength={42} />
                <span class="hint">{t('payee.ibanHint')}</span>
              </label>
              <label>
                {t('payee.bankCode')}
                <input name="bankCode" inputMode="numeric" maxLength={3} />
              </label>
              <label>
                {t('payee.branch')}
                <input name="branch" maxLength={10} />
              </label>
              <label>
                {t('payee.account')}
                <input name="account" maxLength={20} />
              </label>
              <div class="field">
                <label for="payee-account-type">{t('payee.accountType')}</label>
                <select id="payee-account-type" name="accountType">
                  <option value="checking">{t('payee.checking')}</option>
                  <option value="savings">{t('payee.savings')}</option>
                </select>
              </div>
            </>
          )}
          {hasSecondFactor ? (
            factors.data?.totp.enabled && (
              <label>
                {t('payee.code')}
                <input name="code" inputMode="numeric" autocomplete="one-time-code" maxLength={12} />
                <span class="hint">{t('payee.codeHint')}</span>
              </label>
            )
          ) : (
            <label>
              {t('payee.password')}
              <input name="password" type="password" autocomplete="current-password" required />
              <span class="hint">{t('payee.passwordHint')}</span>
            </label>
          )}
          {gate.panel}
          {refused && (
            <p role="alert" class="error">
              {refused}
            </p>
          )}
          <button type="submit" disabled={save.isPending}>
            {t('payee.save')}
          </button>
        </form>
      </section>
    </>
  );
}
