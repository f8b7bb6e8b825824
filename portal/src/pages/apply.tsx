import { Link } from 'wouter-preact';
import { api } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { fieldText, useMailingForm } from '../forms.js';
import { CheckInbox, CountrySelect, Honeypot, joiningFields, LanguageSelect, TermsBox, useJoiningOptions } from '../components/joining-fields.js';

/** A brand applies: its contact confirms the address; the network decides; the contact becomes the owner. */
export function Apply() {
  const { t } = useMessages();
  const options = useJoiningOptions();
  const { sentTo, error, busy, send } = useMailingForm();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = (name: string) => fieldText(form, name).trim();
    const body = {
      ...joiningFields(form),
      company: field('company'),
      taxId: field('taxId'),
      currency: field('currency'),
      expectedMonthlyOrders: Number(field('expectedMonthlyOrders') || '0'),
    };
    return send(body.email, () => api.POST('/brand-applications', { body }));
  };
  return (
    <main class="join">
      <h1>{t('apply.title')}</h1>
      {sentTo ? (
        <CheckInbox email={sentTo} />
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <p class="hint">{t('apply.hint')}</p>
          <label>
            {t('apply.company')}
            <input name="company" autocomplete="organization" required maxLength={100} />
          </label>
          <label>
            {t('apply.website')}
            <input name="website" inputMode="url" autocapitalize="none" autocorrect="off" spellcheck={false} placeholder="www.sualoja.com.br" required />
          </label>
          {options.data && <CountrySelect countries={options.data.countries} label={t('apply.country')} />}
          <label>
            {t('apply.taxId')}
            <input name="taxId" required maxLength={40} aria-describedby="tax-hint" />
            <span id="tax-hint" class="hint">
              {t('apply.taxIdHint')}
            </span>
          </label>
          <label>
            {t('apply.currency')}
            <select name="currency" defaultValue="BRL">
              {(options.data?.currencies ?? ['BRL']).map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('apply.orders')}
            <input name="expectedMonthlyOrders" type="number" inputMode="numeric" min={0} step={1} required />
          </label>
          <label>
            {t('apply.contact')}
            <input name="name" autocomplete="name" required maxLength={100} />
          </label>
          <label>
            {t('apply.email')}
            <input name="email" type="email" autocomplete="email" required />
          </label>
          <LanguageSelect />
          {options.data && <TermsBox version={options.data.termsVersion} url={options.data.termsUrl} />}
          <Honeypot />
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy || !options.data}>
            {t('apply.submit')}
          </button>
        </form>
      )}
      <p>
        {t('join.haveAccount')} <Link href="/">{t('signIn.submit')}</Link>
      </p>
    </main>
  );
}
