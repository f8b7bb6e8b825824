import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { PlatformGuide, Snippet } from './tag-guides.js';
import { TestOrder } from './tag-test-order.js';

const TAG_KEY = ['brand', 'tag'];

/**
 * The brand's order tracking, as a shop owner with no developer installs it: the platform's steps
 * and the one code to paste, a test order that proves it, whether the tag's orders wait for the
 * brand's confirmation, and what the tag sent lately. What a developer needs (the key, the
 * integrity, the order page's call, the pixel) waits under "For developers".
 */
export function TagPage() {
  const { t, dateTime, refusal } = useMessages();
  const queries = useQueryClient();
  const install = useQuery({ queryKey: TAG_KEY, queryFn: async () => ok(await api.GET('/advertiser/tag')).data });
  const makeKey = useMutation({
    mutationFn: async () => ok(await api.POST('/advertiser/tag/publishable-key')).data,
    onSuccess: (data) => queries.setQueryData(TAG_KEY, data),
  });
  const trust = useMutation({
    mutationFn: async (trustTagConversions: boolean) => ok(await api.PATCH('/advertiser/brand', { body: { trustTagConversions } })).data,
    onSuccess: (brand) => {
      queries.setQueryData(['brand'], brand);
      void queries.invalidateQueries({ queryKey: TAG_KEY });
    },
  });
  const error = makeKey.error ?? trust.error;
  return (
    <>
      <h1>{t('tag.title')}</h1>
      <p>{t('tag.intro')}</p>
      {error && (
        <p role="alert" class="error">
          {refusal(error)}
        </p>
      )}
      <QueryState query={install}>
        {(tag) => (
          <>
            {tag.publishableKey && tag.snippets ? (
              <>
                <PlatformGuide snippets={tag.snippets} />
                <TestOrder />
              </>
            ) : (
              <button type="button" disabled={makeKey.isPending} onClick={() => makeKey.mutate()}>
                {t('tag.make')}
              </button>
            )}
            <h2>{t('tag.confirmation')}</h2>
            <label class="check">
              <input type="checkbox" checked={tag.trustTagConversions} disabled={trust.isPending} onChange={(e) => trust.mutate(e.currentTarget.checked)} />
              {t('tag.trust')}
            </label>
            <p class="hint">{t('tag.trustHint')}</p>
            <h2>{t('tag.reports')}</h2>
            <p class="hint">{t('tag.reportsHint')}</p>
            <button type="button" onClick={() => void install.refetch()}>
              {t('tag.refresh')}
            </button>
            {tag.reports.length === 0 ? (
              <p>{t('tag.noReports')}</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('tag.at')}</th>
                    <th scope="col">{t('tag.source')}</th>
                    <th scope="col">{t('orders.order')}</th>
                    <th scope="col">{t('tag.outcome')}</th>
                  </tr>
                </thead>
                <tbody>
                  {tag.reports.map((report, i) => (
                    <tr key={`${report.at}-${i}`} data-testid="tag-report">
                      <td>{dateTime(report.at)}</td>
                      <td>{report.source === 'tag' ? t('tag.sourceTag') : t('tag.sourcePixel')}</td>
                      <td>
                        {report.orderId ?? '—'} {report.test && <span class="badge">{t('tag.testBadge')}</span>}
                      </td>
                      <td>
                        {report.outcome === 'accepted' ? (
                          <span class="badge approved">{t('tag.accepted')}</span>
                        ) : (
                          <>
                            <span class="badge canceled">{t('tag.refused')}</span>{' '}
                            <span class="wrap">{refusal({ code: report.code ?? 'refused', ...(report.details && { details: report.details }) })}</span>
                          </>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {tag.publishableKey && tag.snippets && (
              <details>
                <summary>{t('tag.developers')}</summary>
                <p class="hint">{t('tag.developersHint', { param: tag.clickIdParam, days: tag.attributionWindowDays })}</p>
                <dl class="facts">
                  <dt>{t('tag.key')}</dt>
                  <dd>
                    <code data-testid="publishable-key">{tag.publishableKey}</code>
                  </dd>
                  <dt>{t('tag.integrity')}</dt>
                  <dd>
                    <code class="wrap">{tag.integrity}</code>
                  </dd>
                </dl>
                <ConfirmButton disabled={makeKey.isPending} question={t('tag.replaceConfirm')} onConfirm={() => makeKey.mutate()}>
                  {t('tag.replace')}
                </ConfirmButton>
                <Snippet id="developer-every-page" title={t('tag.everyPage')} hint={t('tag.everyPageHint')} text={tag.snippets.everyPage} />
                <Snippet id="order-page" title={t('tag.orderPage')} hint={t('tag.orderPageHint')} text={tag.snippets.orderPage}>
                  <p>{t('tag.analytics')}</p>
                </Snippet>
                <Snippet id="pixel" title={t('tag.pixel')} hint={t('tag.pixelHint')} text={tag.snippets.pixel} />
              </details>
            )}
          </>
        )}
      </QueryState>
    </>
  );
}
