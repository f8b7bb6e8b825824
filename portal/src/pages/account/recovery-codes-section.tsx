import { useState } from 'preact/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { fieldText } from '../../forms.js';
import { SECOND_FACTORS_KEY, useSecondFactors } from './second-factors-data.js';
import { RecoveryCodesList } from './recovery-codes-list.js';

/** How many recovery codes are left, and new ones (replacing the old) with a code of the app. */
export function RecoveryCodesSection() {
  const { t, refusal } = useMessages();
  const queries = useQueryClient();
  const status = useSecondFactors();
  const [codes, setCodes] = useState<string[]>();
  const regenerate = useMutation({
    mutationFn: async (code: string) => ok(await api.POST('/session/recovery-codes', { body: { code } })).data,
    onSuccess: (data) => {
      setCodes(data.recoveryCodes);
      void queries.invalidateQueries({ queryKey: SECOND_FACTORS_KEY });
    },
  });
  const enabled = status.data?.totp.enabled ?? false;
  return (
    <section aria-labelledby="recovery-title">
      <h2 id="recovery-title">{t('recovery.title')}</h2>
      {!enabled ? (
        <p>{t('recovery.needsApp')}</p>
      ) : (
        <>
          <p data-testid="recovery-left">{t('recovery.left', { count: status.data?.recoveryCodesLeft ?? 0 })}</p>
          {codes && <RecoveryCodesList codes={codes} />}
          <form
            class="stacked"
            onSubmit={(event) => {
              event.preventDefault();
              regenerate.mutate(fieldText(event.currentTarget, 'code'));
            }}
          >
            <p>{t('recovery.regenerateHint')}</p>
            <label>
              {t('totp.code')}
              <input name="code" inputMode="numeric" autocomplete="one-time-code" required />
            </label>
            <button type="submit" disabled={regenerate.isPending}>
              {t('recovery.regenerate')}
            </button>
          </form>
          {regenerate.isError && <p role="alert" class="error">{refusal(regenerate.error)}</p>}
        </>
      )}
    </section>
  );
}
