import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { RefusedLines } from '../../components/refused-lines.js';
import { fieldText } from '../../forms.js';
import type { paths } from '../../../../packages/client/index.js';
import { ConfirmButton } from '../../components/confirm-button.js';

type Feed = paths['/advertiser/feeds']['get']['responses'][200]['content']['application/json']['data'][number];
type Run = NonNullable<Feed['lastRun']>;
type FeedInput = NonNullable<paths['/advertiser/feeds/{id}']['put']['requestBody']>['content']['application/json'];

const FEEDS_KEY = ['brand-feeds'];
/** The content type an uploaded copy is sent with, by the feed's format (gzip files as they are). */
const uploadType = (format: string, file: File) => (/\.gz$/i.test(file.name) ? 'application/gzip' : format === 'google-xml' ? 'application/xml' : format === 'google-tsv' ? 'text/tab-separated-values' : 'text/csv');

/** One run's report: its counts, why it failed, and the items it refused. */
function RunReport({ run }: { run: Run }) {
  const { t, dateTime } = useMessages();
  return (
    <div class="card" data-testid={`feed-run-${run.id}`}>
      <p>
        <span class={`badge ${run.status === 'complete' ? 'approved' : run.status === 'failed' ? 'canceled' : 'pending'}`}>{t(`brandFeeds.status.${run.status}`)}</span> {dateTime(run.startedAt)}
      </p>
      {run.reason && <p class="blocked wrap">{run.reason}</p>}
      <p>
        {t('brandFeeds.counts', { items: run.items, added: run.added, updated: run.updated, unchanged: run.unchanged, unavailable: run.madeUnavailable, refused: run.refused })}
      </p>
      {run.refusals.length > 0 && (
        <RefusedLines caption={t('brandFeeds.refusals')} rows={run.refusals.map((r) => ({ line: r.line, id: r.item, reason: r.reason }))} />
      )}
    </div>
  );
}

/** The brand's product feeds on the Catalogue page: add or change one, run an uploaded copy, read each run's report. */
export function FeedsSection() {
  const { t, dateTime, refusal } = useMessages();
  const queries = useQueryClient();
  const [shown, setShown] = useState<Run | undefined>();
  const feeds = useQuery({ queryKey: FEEDS_KEY, queryFn: async () => ok(await api.GET('/advertiser/feeds')).data });
  const refresh = () => void queries.invalidateQueries({ queryKey: FEEDS_KEY });
  const save = useMutation({
    mutationFn: async ({ id, body }: { id: string; body: FeedInput }) => ok(await api.PUT('/advertiser/feeds/{id}', { params: { path: { id } }, body })).data,
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: async (id: string) => ok(await api.DELETE('/advertiser/feeds/{id}', { params: { path: { id } } })), onSuccess: refresh });
  const upload = useMutation({
    mutationFn: async ({ feed, file }: { feed: Feed; file: File }) =>
      ok(await api.POST('/advertiser/feeds/{id}/runs', { params: { path: { id: feed.id } }, body: file as never, bodySerializer: (body) => body as BodyInit, headers: { 'content-type': uploadType(feed.format, file) } })).data,
    onSuccess: (run) => {
      setShown(run);
      refresh();
    },
  });
  const failure = save.error ?? remove.error ?? upload.error;
  return (
    <section aria-labelledby="feeds-title">
      <h2 id="feeds-title">{t('brandFeeds.title')}</h2>
      <p class="hint">{t('brandFeeds.hint')}</p>
      {failure && (
        <p role="alert" class="error">
          {refusal(failure)}
        </p>
      )}
      <form
        class="stacked"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const format = fieldText(form, 'format') as FeedInput['format'];
          const schedule = fieldText(form, 'schedule') as FeedInput['schedule'];
          save.mutate({ id: fieldText(form, 'feedId').trim(), body: { url: fieldText(form, 'url').trim(), format, schedule } });
        }}
      >
        <label>
          {t('brandFeeds.id')}
          <input name="feedId" required pattern="[A-Za-z0-9._\-]{1,100}" defaultValue="main" />
        </label>
        <label>
          {t('brandFeeds.url')}
          <input name="url" type="url" required size={40} placeholder="https://www.example.com/feeds/google.xml" />
        </label>
        <label>
          {t('brandFeeds.format')}
          <select name="format">
            <option value="google-xml">Google XML</option>
            <option value="google-tsv">Google TSV</option>
            <option value="csv">CSV</option>
          </select>
        </label>
        <label>
          {t('brandFeeds.schedule')}
          <select name="schedule">
            <option value="daily">{t('brandFeeds.daily')}</option>
            <option value="hourly">{t('brandFeeds.hourly')}</option>
          </select>
        </label>
        <button type="submit" disabled={save.isPending}>
          {t('brandFeeds.save')}
        </button>
      </form>
      <QueryState query={feeds}>
        {(list) =>
          list.length === 0 ? (
            <p>{t('brandFeeds.none')}</p>
          ) : (
            <div>
              {list.map((feed) => (
                <div key={feed.id} class="card" data-testid={`feed-${feed.id}`}>
                  <h3>{feed.id}</h3>
                  <p class="wrap">
                    {feed.url} · {feed.format} · {t(feed.schedule === 'hourly' ? 'brandFeeds.hourly' : 'brandFeeds.daily')} · {t('brandFeeds.next', { at: dateTime(feed.nextRunAt) })}
                  </p>
                  {feed.lastRun && <RunReport run={feed.lastRun} />}
                  <label>
                    {t('brandFeeds.upload')}
                    <input type="file" onChange={(e) => {
                      const file = e.currentTarget.files?.[0];
                      if (file) upload.mutate({ feed, file });
                    }} />
                  </label>
                  <ConfirmButton question={t('brandFeeds.deleteConfirm', { id: feed.id })} onConfirm={() => remove.mutate(feed.id)}>
                    {t('brandFeeds.delete')}
                  </ConfirmButton>
                </div>
              ))}
            </div>
          )
        }
      </QueryState>
      {shown && (
        <div role="status">
          <h3>{t('brandFeeds.uploaded')}</h3>
          <RunReport run={shown} />
        </div>
      )}
    </section>
  );
}
