import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { SECOND_FACTORS_KEY, useSecondFactors } from './second-factors-data.js';

/** An owner requires (or stops requiring) a second factor of everyone in the team. */
export function TeamFactorSection({ side }: { side: 'affiliate' | 'brand' }) {
  const { t, refusal } = useMessages();
  const queries = useQueryClient();
  const status = useSecondFactors();
  const change = useMutation({
    mutationFn: async (required: boolean) =>
      ok(await api.PUT(side === 'affiliate' ? '/affiliate/team/second-factor-required' : '/advertiser/team/second-factor-required', { body: { required } })).data,
    onSuccess: () => void queries.invalidateQueries({ queryKey: SECOND_FACTORS_KEY }),
  });
  return (
    <section aria-labelledby="team-factor-title">
      <h2 id="team-factor-title">{t('teamFactor.title')}</h2>
      <label class="check">
        <input type="checkbox" checked={status.data?.teamRequires ?? false} disabled={!status.data || change.isPending} onChange={(event) => change.mutate((event.currentTarget).checked)} />
        {t('teamFactor.require')}
      </label>
      {change.isError && <p role="alert" class="error">{refusal(change.error)}</p>}
    </section>
  );
}
