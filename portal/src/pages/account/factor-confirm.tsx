import { useState } from 'preact/hooks';
import { startAuthentication } from '@simplewebauthn/browser';
import { api, ApiFailure, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { fieldText } from '../../forms.js';
import { useSecondFactors } from './second-factors-data.js';

/** Whether an action was refused because it asks for a current second factor first. */
export const needsFactor = (error: unknown): boolean => error instanceof ApiFailure && error.body?.code === 'second_factor_needed';

/**
 * "Confirm it is you": a code of the app or a passkey, for changes of factors that ask for a current
 * one (the password is never enough). Once confirmed, `onConfirmed` makes the change again.
 */
export function FactorConfirm({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const { t, refusal } = useMessages();
  const status = useSecondFactors();
  const [error, setError] = useState<Error>();
  const [busy, setBusy] = useState(false);
  const confirm = async (proof: () => Promise<{ code: string } | { passkey: unknown }>) => {
    setBusy(true);
    setError(undefined);
    try {
      ok(await api.POST('/session/second-factor/confirm', { body: (await proof()) as never }));
      onConfirmed();
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };
  const withPasskey = async () => ({ passkey: await startAuthentication({ optionsJSON: ok(await api.POST('/session/second-factor/confirm/passkey-options')).data }) });
  return (
    <div class="confirm-factor" role="group" aria-labelledby="confirm-factor-title">
      <h3 id="confirm-factor-title">{t('confirmFactor.title')}</h3>
      <p>{t('confirmFactor.why')}</p>
      {status.data?.totp.enabled && (
        <form
          class="stacked"
          onSubmit={(event) => {
            event.preventDefault();
            const code = fieldText(event.currentTarget, 'code');
            void confirm(async () => ({ code }));
          }}
        >
          <label>
            {t('totp.code')}
            <input name="code" inputMode="numeric" autocomplete="one-time-code" required />
          </label>
          <button type="submit" disabled={busy}>
            {t('confirmFactor.submit')}
          </button>
        </form>
      )}
      <p class="choices">
        {(status.data?.passkeys.length ?? 0) > 0 && (
          <button type="button" disabled={busy} onClick={() => void confirm(withPasskey)}>
            {t('signIn.usePasskey')}
          </button>
        )}
        <button type="button" class="text-button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </p>
      {error && (
        <p role="alert" class="error">
          {refusal(error)}
        </p>
      )}
    </div>
  );
}

/**
 * For a section whose changes may ask for a current second factor: `caught(error, again)` keeps
 * `again` when the error asks for one (true), and `panel` then asks the person to confirm, making
 * the change again once they have.
 */
export function useFactorGate() {
  const [pending, setPending] = useState<{ again: () => void }>();
  return {
    caught: (error: unknown, again: () => void): boolean => {
      if (!needsFactor(error)) return false;
      setPending({ again });
      return true;
    },
    panel: pending && (
      <FactorConfirm
        onConfirmed={() => {
          setPending(undefined);
          pending.again();
        }}
        onCancel={() => setPending(undefined)}
      />
    ),
  };
}
