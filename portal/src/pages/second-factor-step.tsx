import { useState } from 'preact/hooks';
import { startAuthentication } from '@simplewebauthn/browser';
import { api, ApiFailure } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { fieldText } from '../forms.js';

export interface SecondFactorChallenge {
  methods: Array<'totp' | 'recovery_code' | 'passkey'>;
  ticket: string;
}


/** The second step of a sign-in: a code of the app, a recovery code, or a passkey, with the ticket the password earned. */
export function SecondFactorStep({ challenge, onSignedIn, onStartOver }: { challenge: SecondFactorChallenge; onSignedIn: (session: { csrfToken: string }) => void; onStartOver: () => void }) {
  const { t, refusal } = useMessages();
  const hasCode = challenge.methods.includes('totp');
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async (proof: { code?: string; recoveryCode?: string; passkey?: unknown }) => {
    setBusy(true);
    const result = await api.POST('/session/second-factor', { body: { ticket: challenge.ticket, ...proof } as never });
    setBusy(false);
    if (result.error) return setError(refusal(new ApiFailure(result.response.status, result.error)));
    onSignedIn(result.data.data);
  };
  const usePasskey = async () => {
    setError('');
    try {
      const options = await api.POST('/session/second-factor/passkey-options', { body: { ticket: challenge.ticket } });
      if (options.error) return setError(refusal(new ApiFailure(options.response.status, options.error)));
      await send({ passkey: await startAuthentication({ optionsJSON: options.data.data }) });
    } catch (failure) {
      setError(refusal(failure as Error));
    }
  };
  return (
    <>
      <h2>{t('signIn.secondFactor')}</h2>
      {hasCode && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            void send(recovery ? { recoveryCode: fieldText(form, 'recoveryCode') } : { code: fieldText(form, 'code') });
          }}
        >
          {recovery ? (
            <label>
              {t('signIn.recoveryCode')}
              <input name="recoveryCode" autocomplete="off" autocapitalize="none" spellcheck={false} required />
            </label>
          ) : (
            <>
              <p>{t('signIn.enterCode')}</p>
              <label>
                {t('signIn.code')}
                <input name="code" inputMode="numeric" autocomplete="one-time-code" required />
              </label>
            </>
          )}
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy}>
            {t('signIn.verify')}
          </button>
        </form>
      )}
      {!hasCode && error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <p class="choices">
        {hasCode && (
          <button type="button" class="text-button" onClick={() => (setRecovery(!recovery), setError(''))}>
            {recovery ? t('signIn.useCode') : t('signIn.useRecovery')}
          </button>
        )}
        {challenge.methods.includes('passkey') && (
          <button type="button" onClick={() => void usePasskey()} disabled={busy}>
            {t('signIn.usePasskey')}
          </button>
        )}
        <button type="button" class="text-button" onClick={onStartOver}>
          {t('signIn.startOver')}
        </button>
      </p>
    </>
  );
}
