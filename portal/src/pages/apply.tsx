import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { fieldText } from '../forms.js';
import { CheckInbox, CountrySelect, Honeypot, LanguageSelect, TermsBox, useJoiningOptions } from '../components/joining-fields.js';

/** A brand applies: its contact confirms the address; the network decides; the contact becomes the owner. */
export function Apply() {
  const { t } = useMessages();
  const options = useJoiningOptions();
  const [sentTo, setSentTo] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = (name: string) => fieldText(form, name).trim();
    const body = {
      company: field('company'),
      name: field('name'),
      email: field('email'),
      country: field('country'),
      language: field('language') as 'en' | 'pt-BR',
      website: field('website'),
      taxId: field('taxId'),
      currency: field('currency'),
      expectedMonthlyOrders: Number(field('expectedMonthlyOrders') || '0'),
      acceptTerms: true as const,
      ...(field('nickname') && { nickname: field('nickname') }),
    };
    setBusy(true);
    try {
      const result = await api.POST('/brand-applications', { body });
      if (result.error) return setError(result.error.message);
    } catch {
      return setError(t('common.error', { message: 'network' }));
    } finally {
      setBusy(false);
    }
    setError('');
    setSentTo(body.email);
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
            <input name="website" type="url" inputMode="url" placeholder="https://" required />
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
