import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api, ApiFailure } from '../api.js';
import { useMessages } from '../i18n/index.js';

type Outcome = { kind: 'affiliate' | 'brand'; status: 'pending' | 'approved' };

/**
 * Where the verification mail leads. The address is confirmed by a press of the button, not by
 * opening the page: mail scanners that open links would otherwise use it up.
 */
export function Verify() {
  const { t, refusal } = useMessages();
  const token = new URLSearchParams(window.location.search).get('token');
  const [outcome, setOutcome] = useState<Outcome>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  if (!token) return <main class="narrow"><p role="alert" class="error">{t('setPassword.missingToken')}</p></main>;
  const confirm = async () => {
    setBusy(true);
    try {
      const result = await api.POST('/signup/verify', { body: { token } });
      if (result.error) return setError(refusal(new ApiFailure(result.response.status, result.error)));
      setOutcome(result.data.data);
    } catch {
      setError(t('common.unreachable'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="narrow">
      <h1>{t('verify.title')}</h1>
      {outcome ? (
        <>
          <p role="status">{outcome.status === 'approved' ? t('verify.approved') : t('verify.pending')}</p>
          {outcome.status === 'approved' && <Link href="/">{t('signIn.submit')}</Link>}
        </>
      ) : (
        <>
          <p class="hint">{t('verify.hint')}</p>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          <button type="button" disabled={busy} onClick={() => void confirm()}>
            {t('verify.submit')}
          </button>
        </>
      )}
    </main>
  );
}
