import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';

/** Shown to a brand not yet launched: what launching needs, each step done or not, and the button. */
export function LaunchChecklist() {
  const { t } = useMessages();
  const queries = useQueryClient();
  const state = useQuery({ queryKey: ['brand', 'launch'], queryFn: async () => ok(await api.GET('/advertiser/brand/launch')).data });
  const launch = useMutation({
    mutationFn: async () => ok(await api.POST('/advertiser/brand/launch')).data,
    onSuccess: (data) => queries.setQueryData(['brand', 'launch'], data),
  });
  if (!state.data || state.data.launched) return null;
  const steps = [
    { done: state.data.steps.commission, label: t('launch.commission'), href: '/profile' },
    { done: state.data.steps.catalogue, label: t('launch.catalogue'), href: '/catalogue' },
  ];
  return (
    <section class="launch" aria-labelledby="launch-title">
      <h2 id="launch-title">{t('launch.title')}</h2>
      <p class="hint">{t('launch.hint')}</p>
      <ol>
        {steps.map((step) => (
          <li key={step.href}>
            <Link href={step.href}>{step.label}</Link> — <strong>{step.done ? t('launch.done') : t('launch.todo')}</strong>
          </li>
        ))}
      </ol>
      {launch.error && (
        <p role="alert" class="error">
          {launch.error.message}
        </p>
      )}
      <button type="button" disabled={!steps.every((s) => s.done) || launch.isPending} onClick={() => launch.mutate()}>
        {t('launch.submit')}
      </button>
    </section>
  );
}
