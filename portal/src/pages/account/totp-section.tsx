import { useState } from 'preact/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QrCode } from '../../components/qr-code.js';
import { fieldText } from '../../forms.js';
import { SECOND_FACTORS_KEY, useSecondFactors } from './second-factors-data.js';
import { RecoveryCodesList } from './recovery-codes-list.js';
import { needsFactor, useFactorGate } from './factor-confirm.js';

/** The authenticator app: set up (QR code and key, confirmed with a code; recovery codes shown once), or turned off. */
export function TotpSection() {
  const { t, refusal } = useMessages();
  const queries = useQueryClient();
  const status = useSecondFactors();
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string }>();
  const [codes, setCodes] = useState<string[]>();
  const gate = useFactorGate();
  const refresh = () => void queries.invalidateQueries({ queryKey: SECOND_FACTORS_KEY });
  // Someone who has a passkey confirms it before setting up an app.
  const start = useMutation({ mutationFn: async () => ok(await api.POST('/session/totp')).data, onSuccess: setEnrolment, onError: (error) => gate.caught(error, () => start.mutate()) });
  const confirm = useMutation({
    mutationFn: async (code: string) => ok(await api.POST('/session/totp/confirm', { body: { code } })).data,
    onSuccess: (data) => {
      setEnrolment(undefined);
      setCodes(data.recoveryCodes);
      refresh();
    },
  });
  const disable = useMutation({
    mutationFn: async (code: string) => ok(await api.DELETE('/session/totp', { body: { code } })),
    onSuccess: () => {
      setCodes(undefined);
      refresh();
    },
  });
  const enabled = status.data?.totp.enabled ?? false;
  const error = [start.error, confirm.error, disable.error].find((e) => e && !needsFactor(e));
  return (
    <section aria-labelledby="totp-title">
      <h2 id="totp-title">{t('totp.title')}</h2>
      <p>{enabled ? t('totp.on') : t('totp.off')}</p>
      {codes && <RecoveryCodesList codes={codes} />}
      {!enabled && !enrolment && (
        <button type="button" onClick={() => start.mutate()} disabled={start.isPending}>
          {t('totp.setUp')}
        </button>
      )}
      {!enabled && enrolment && (
        <form
          class="stacked"
          onSubmit={(event) => {
            event.preventDefault();
            confirm.mutate(fieldText(event.currentTarget, 'code'));
          }}
        >
          <p>{t('totp.scan')}</p>
          <QrCode text={enrolment.uri} label={t('totp.qr')} />
          <p>
            {t('totp.key')}: <code data-testid="totp-secret">{enrolment.secret}</code>
          </p>
          <label>
            {t('totp.code')}
            <input name="code" inputMode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required />
          </label>
          <button type="submit" disabled={confirm.isPending}>
            {t('totp.confirm')}
          </button>
        </form>
      )}
      {enabled && (
        <form
          class="stacked"
          onSubmit={(event) => {
            event.preventDefault();
            disable.mutate(fieldText(event.currentTarget, 'code'));
          }}
        >
          <p>{t('totp.disableHint')}</p>
          <label>
            {t('totp.code')}
            <input name="code" inputMode="numeric" autocomplete="one-time-code" required />
          </label>
          <button type="submit" class="danger" disabled={disable.isPending}>
            {t('totp.disable')}
          </button>
        </form>
      )}
      {gate.panel}
      {error && <p role="alert" class="error">{refusal(error)}</p>}
    </section>
  );
}
