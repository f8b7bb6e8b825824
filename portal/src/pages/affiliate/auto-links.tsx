import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { CopyButton } from '../../components/copy-button.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { fieldText } from '../../forms.js';
import type { paths } from '../../../../packages/client/index.js';

type Script = paths['/affiliate/link-script/{channelId}']['get']['responses'][200]['content']['application/json']['data'];

/**
 * Links made automatically on the affiliate's own site: per site channel, the site's address, the
 * one code to paste, the sites it works on, a new code when the old one leaked, and the links it
 * made lately.
 */
export function AutoLinks() {
  const { t } = useMessages();
  const channels = useQuery({ queryKey: ['channels'], queryFn: async () => ok(await api.GET('/affiliate/channels')).data });
  const [chosen, setChosen] = useState<string>();
  return (
    <>
      <h1>{t('autoLinks.title')}</h1>
      <p class="hint">{t('autoLinks.hint')}</p>
      <QueryState query={channels}>
        {(all) => {
          const sites = all.filter((c) => c.availableChannel.id === 'site');
          if (sites.length === 0)
            return (
              <p>
                {t('autoLinks.noSite')} <Link href="/channels">{t('nav.channels')}</Link>
              </p>
            );
          const channelId = chosen && sites.some((c) => c.id === chosen) ? chosen : sites[0]!.id;
          return (
            <>
              {sites.length > 1 && (
                <form class="filters" onSubmit={(e) => e.preventDefault()}>
                  <label>
                    {t('autoLinks.channel')}
                    <select value={channelId} onChange={(e) => setChosen(e.currentTarget.value)}>
                      {sites.map((c) => (
                        <option key={c.id} value={c.id}>
                          {c.name}
                        </option>
                      ))}
                    </select>
                  </label>
                </form>
              )}
              <ChannelScript key={channelId} channelId={channelId} />
            </>
          );
        }}
      </QueryState>
    </>
  );
}

function ChannelScript({ channelId }: { channelId: string }) {
  const { t, refusal, number, date } = useMessages();
  const queries = useQueryClient();
  const queryKey = ['link-script', channelId];
  const script = useQuery({ queryKey, queryFn: async () => ok(await api.GET('/affiliate/link-script/{channelId}', { params: { path: { channelId } } })).data });
  const show = (data: Script) => queries.setQueryData(queryKey, data);
  const params = { params: { path: { channelId } } };
  const address = useMutation({
    mutationFn: async (site: string) => ok(await api.PATCH('/affiliate/channels/{id}', { params: { path: { id: channelId } }, body: { site } })).data,
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['channels'] });
      void queries.invalidateQueries({ queryKey });
    },
  });
  const sites = useMutation({ mutationFn: async (list: string[]) => ok(await api.PUT('/affiliate/link-script/{channelId}', { ...params, body: { sites: list } })).data, onSuccess: show });
  const code = useMutation({ mutationFn: async () => ok(await api.POST('/affiliate/link-script/{channelId}/key', params)).data, onSuccess: show });
  const failure = address.error ?? sites.error ?? code.error;
  return (
    <QueryState query={script}>
      {(s) => (
        <>
          {failure && (
            <p role="alert" class="error">
              {refusal(failure)}
            </p>
          )}
          <section aria-labelledby="auto-site">
            <h2 id="auto-site">{t('autoLinks.site')}</h2>
            {s.channel.site && <p class="wrap">{s.channel.site}</p>}
            <form
              onSubmit={(e) => {
                e.preventDefault();
                address.mutate(fieldText(e.currentTarget, 'site'));
              }}
            >
              <label>
                {s.channel.site ? t('autoLinks.siteChange') : t('autoLinks.siteGive')}
                <input name="site" required maxLength={2048} inputMode="url" placeholder={t('autoLinks.sitePlaceholder')} />
              </label>
              <button type="submit" disabled={address.isPending}>
                {t('common.save')}
              </button>
            </form>
          </section>

          <section aria-labelledby="auto-code">
            <h2 id="auto-code">{t('autoLinks.code')}</h2>
            {s.snippet ? (
              <>
                <p class="hint">{t('autoLinks.codeHint')}</p>
                <pre class="snippet" data-testid="auto-links-snippet">
                  <code>{s.snippet}</code>
                </pre>
                <p class="downloads">
                  <CopyButton text={s.snippet} label={t('autoLinks.code')} />
                  <ConfirmButton class="secondary" disabled={code.isPending} question={t('autoLinks.replaceConfirm')} onConfirm={() => code.mutate()}>
                    {t('autoLinks.replace')}
                  </ConfirmButton>
                </p>
              </>
            ) : (
              <button type="button" disabled={code.isPending} onClick={() => code.mutate()}>
                {t('autoLinks.make')}
              </button>
            )}
          </section>

          <section aria-labelledby="auto-sites">
            <h2 id="auto-sites">{t('autoLinks.sites')}</h2>
            <p class="hint">{s.domain ? t('autoLinks.sitesHint', { domain: s.domain }) : t('autoLinks.sitesNeedAddress')}</p>
            {s.sites.length === 0 ? (
              <p>{t('autoLinks.noSites')}</p>
            ) : (
              <ul class="sites">
                {s.sites.map((site) => (
                  <li key={site} data-testid="auto-links-site">
                    <span class="wrap">{site}</span>
                    <button type="button" class="secondary" aria-label={t('autoLinks.removeSite', { site })} disabled={sites.isPending} onClick={() => sites.mutate(s.sites.filter((other) => other !== site))}>
                      {t('autoLinks.remove')}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {s.domain && (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  const form = e.currentTarget;
                  sites.mutate([...s.sites, fieldText(form, 'site')], { onSuccess: () => form.reset() });
                }}
              >
                <label>
                  {t('autoLinks.addSite')}
                  <input name="site" required maxLength={300} inputMode="url" placeholder={`www.${s.domain}`} />
                </label>
                <button type="submit" disabled={sites.isPending}>
                  {t('autoLinks.add')}
                </button>
              </form>
            )}
          </section>

          <section aria-labelledby="auto-made">
            <h2 id="auto-made">{t('autoLinks.made')}</h2>
            <p class="hint">{t('autoLinks.madeHint')}</p>
            {s.links.length === 0 ? (
              <p>{t('autoLinks.noneMade')}</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('orders.brand')}</th>
                    <th scope="col">{t('autoLinks.target')}</th>
                    <th scope="col">{t('links.clicks')}</th>
                    <th scope="col">{t('autoLinks.madeOn')}</th>
                  </tr>
                </thead>
                <tbody>
                  {s.links.map((link) => (
                    <tr key={link.urlCode} data-testid={`auto-link-${link.urlCode}`}>
                      <td>
                        <Link href={`/brands/${encodeURIComponent(link.organizationId)}`}>{link.brandName ?? t('orders.aBrand')}</Link>
                      </td>
                      <td class="wrap">{link.originalUrl}</td>
                      <td>{number(link.count)}</td>
                      <td>{date(link.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </QueryState>
  );
}
