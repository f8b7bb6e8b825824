import { Link } from 'wouter-preact';
import { api } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { fieldText, useMailingForm } from '../forms.js';
import { CheckInbox, CountrySelect, Honeypot, joiningFields, LanguageSelect, TermsBox, useJoiningOptions } from '../components/joining-fields.js';
import type { MessageKey } from '../i18n/en.js';
import type { paths } from '../../../packages/client/index.js';

type ProfileKind = NonNullable<paths['/signup']['post']['requestBody']['content']['application/json']['channelKind']>;

/** The networks a profile may be on, as the form offers them; a site is told by its address. */
const NETWORKS: Record<Exclude<ProfileKind, 'site'>, MessageKey> = {
  instagram: 'channels.kind.instagram',
  tiktok: 'channels.kind.tiktok',
  youtube: 'channels.kind.youtube',
  x: 'channels.kind.x',
};

/** An affiliate signs up: a link to confirm the address is mailed; the network then decides. */
export function SignUp() {
  const { t } = useMessages();
  const options = useJoiningOptions();
  const { sentTo, error, busy, send } = useMailingForm();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const kind = fieldText(form, 'channelKind') as ProfileKind | '';
    const body = { ...joiningFields(form), ...(kind && { channelKind: kind }), password: fieldText(form, 'password') };
    return send(body.email, () => api.POST('/signup', { body }));
  };
  return (
    <main class="join">
      <h1>{t('signUp.title')}</h1>
      {sentTo ? (
        <CheckInbox email={sentTo} />
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <p class="hint">{t('signUp.hint')}</p>
          <label>
            {t('signUp.name')}
            <input name="name" autocomplete="name" required maxLength={100} />
          </label>
          <label>
            {t('signIn.email')}
            <input name="email" type="email" autocomplete="email" required />
          </label>
          <label>
            {t('signIn.password')}
            <input name="password" type="password" autocomplete="new-password" required minLength={10} aria-describedby="password-hint" />
            <span id="password-hint" class="hint">
              {t('setPassword.hint')}
            </span>
          </label>
          <label>
            {t('signUp.websiteKind')}
            <select name="channelKind">
              <option value="">{t('channels.kind.site')}</option>
              {Object.entries(NETWORKS).map(([id, key]) => (
                <option key={id} value={id}>
                  {t(key)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('signUp.website')}
            {/* Text, not url: the service reads @you, instagram.com/you and www.site.com.br as addresses. */}
            <input name="website" autocapitalize="none" autocorrect="off" spellcheck={false} placeholder={t('signUp.websitePlaceholder')} required maxLength={2048} aria-describedby="website-hint" />
            <span id="website-hint" class="hint">
              {t('signUp.websiteHint')}
            </span>
          </label>
          {options.data && <CountrySelect countries={options.data.countries} label={t('join.country')} />}
          <LanguageSelect />
          {options.data && <TermsBox version={options.data.termsVersion} url={options.data.termsUrl} />}
          <Honeypot />
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy || !options.data}>
            {t('signUp.submit')}
          </button>
        </form>
      )}
      <p>
        {t('join.haveAccount')} <Link href="/">{t('signIn.submit')}</Link>
      </p>
    </main>
  );
}
