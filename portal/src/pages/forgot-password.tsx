import { Link } from 'wouter-preact';
import { api } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { fieldText, useMailingForm } from '../forms.js';

/** "Forgot your password?": a link to set a new one is mailed; the page says the same whether or not the address has an account. */
export function ForgotPassword() {
  const { t } = useMessages();
  const { sentTo, error, busy, send } = useMailingForm();
  const submit = (event: Event) => {
    event.preventDefault();
    const email = fieldText(event.currentTarget as HTMLFormElement, 'email').trim();
    return send(email, () => api.POST('/session/password-reset', { body: { email } }));
  };
  return (
    <main class="narrow">
      <h1>{t('forgot.title')}</h1>
      {sentTo ? (
        <p role="status">{t('forgot.sent', { email: sentTo })}</p>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <p class="hint">{t('forgot.hint')}</p>
          <label>
            {t('signIn.email')}
            <input name="email" type="email" autocomplete="username" required />
          </label>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy}>
            {t('forgot.submit')}
          </button>
        </form>
      )}
      <p>
        <Link href="/">{t('forgot.back')}</Link>
      </p>
    </main>
  );
}
