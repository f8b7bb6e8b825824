import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { CopyButton } from '../../components/copy-button.js';

const LAUNCH_KEY = ['brand', 'launch'];

/**
 * Shown to a brand not yet launched: what launching needs, each step done or not, whether its
 * tracking is installed (shown, never needed to launch), and the button; once launched from here,
 * what happened and what to do next.
 */
export function LaunchChecklist() {
  const messages = useMessages();
  const { t, refusal } = messages;
  const queries = useQueryClient();
  const [launchedNow, setLaunchedNow] = useState(false);
  const state = useQuery({ queryKey: LAUNCH_KEY, queryFn: async () => ok(await api.GET('/advertiser/brand/launch')).data });
  const launch = useMutation({
    mutationFn: async () => ok(await api.POST('/advertiser/brand/launch')).data,
    onSuccess: (data) => {
      queries.setQueryData(LAUNCH_KEY, data);
      // Launching makes the brand public: the profile shows it so.
      void queries.invalidateQueries({ queryKey: ['brand'], exact: true });
      setLaunchedNow(data.launched);
    },
  });
  if (launchedNow && state.data) return <NextSteps tracking={state.data.steps.tracking} />;
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
        <li data-testid="launch-tracking">
          <Link href="/tag">{t('launch.tracking')}</Link> — <strong>{state.data.steps.tracking ? t('launch.done') : t('launch.todo')}</strong>{' '}
          <span class="hint">{t('launch.trackingOptional')}</span>
          <ServerReporting />
        </li>
      </ol>
      {launch.error && (
        <p role="alert" class="error">
          {refusal(launch.error)}
        </p>
      )}
      <button type="button" disabled={!steps.every((s) => s.done) || launch.isPending} onClick={() => launch.mutate()}>
        {t('launch.submit')}
      </button>
    </section>
  );
}

/** The brand's word that its own system reports its orders to the network, which counts as tracking installed. */
function ServerReporting() {
  const messages = useMessages();
  const { t, refusal } = messages;
  const queries = useQueryClient();
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const say = useMutation({
    mutationFn: async (reportsOrdersFromServer: boolean) => ok(await api.PATCH('/advertiser/brand', { body: { reportsOrdersFromServer } })).data,
    onSuccess: (brand) => {
      queries.setQueryData(['brand'], brand);
      void queries.invalidateQueries({ queryKey: LAUNCH_KEY });
    },
  });
  if (!profile.data) return null;
  return (
    <>
      <label class="check">
        <input type="checkbox" checked={say.isPending ? say.variables : profile.data.reportsOrdersFromServer} disabled={say.isPending} onChange={(e) => say.mutate(e.currentTarget.checked)} />
        {t('launch.serverReports')}
      </label>
      {say.error && (
        <p role="alert" class="error">
          {refusal(say.error)}
        </p>
      )}
    </>
  );
}

/** What launching did, and the three things that bring the first orders: the page to share, tracking, affiliates. */
function NextSteps({ tracking }: { tracking: boolean }) {
  const { t } = useMessages();
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  // The brand's page as affiliates open it in the portal; one without an account signs up from there.
  const programme = profile.data ? `${location.origin}/app/brands/${encodeURIComponent(profile.data.id)}` : undefined;
  return (
    <section class="launch" aria-labelledby="launched-title" data-testid="launched">
      <h2 id="launched-title">{t('launch.launchedTitle')}</h2>
      <p role="status">{t('launch.launched')}</p>
      <h3>{t('launch.nextTitle')}</h3>
      <ol>
        <li>
          {t('launch.share')}
          {programme && (
            <div class="share">
              <code data-testid="programme-url">{programme}</code>
              <CopyButton text={programme} label={t('launch.shareLabel')} />
            </div>
          )}
        </li>
        <li data-testid="launch-next-tracking">
          {tracking ? (
            <>
              {t('launch.trackingSeen')} <Link href="/tag">{t('launch.trackingCheck')}</Link>
            </>
          ) : (
            <>
              {t('launch.installTracking')} <Link href="/tag">{t('launch.trackingOpen')}</Link>
              <ServerReporting />
            </>
          )}
        </li>
        <li>
          {t('launch.invite')} <Link href="/affiliates">{t('launch.affiliatesOpen')}</Link>
        </li>
      </ol>
    </section>
  );
}
