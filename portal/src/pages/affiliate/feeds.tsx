import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { CopyButton } from '../../components/copy-button.js';

const FORMATS = [
  ['csv', 'feeds.csv'],
  ['xml', 'feeds.xml'],
] as const;

/** The affiliate's product feeds: every product it may promote with deep links for one channel, as CSV and as a Google Merchant Center feed. */
export function Feeds() {
  const { t } = useMessages();
  const channels = useQuery({ queryKey: ['channels'], queryFn: async () => ok(await api.GET('/affiliate/channels')).data });
  const [chosen, setChosen] = useState<string>();
  const [mdasc, setMdasc] = useState('');
  const [onlyAvailable, setOnlyAvailable] = useState(true);
  return (
    <>
      <h1>{t('feeds.title')}</h1>
      <p class="hint">{t('feeds.hint')}</p>
      <QueryState query={channels}>
        {(list) => {
          if (list.length === 0) return <p>{t('feeds.noChannels')}</p>;
          const channelId = chosen && list.some((c) => c.id === chosen) ? chosen : list[0]!.id;
          const query = new URLSearchParams({ channelId, ...(mdasc.trim() && { mdasc: mdasc.trim() }), ...(onlyAvailable && { isAvailable: 'true' }) }).toString();
          const path = (format: string) => `/affiliate/feeds/products.${format}?${query}`;
          return (
            <>
              <form class="filters" onSubmit={(e) => e.preventDefault()}>
                <label>
                  {t('feeds.channel')}
                  <select value={channelId} onChange={(e) => setChosen(e.currentTarget.value)}>
                    {list.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  {t('feeds.mdasc')}
                  <input value={mdasc} maxLength={200} placeholder={t('feeds.mdascPlaceholder')} onInput={(e) => setMdasc(e.currentTarget.value)} />
                </label>
                <label class="check">
                  <input type="checkbox" checked={onlyAvailable} onChange={(e) => setOnlyAvailable(e.currentTarget.checked)} />
                  {t('feeds.onlyAvailable')}
                </label>
              </form>
              <ul class="cards">
                {FORMATS.map(([format, title]) => {
                  const url = `${window.location.origin}${path(format)}`;
                  return (
                    <li key={format} class="card" data-testid={`feed-${format}`}>
                      <h2>{t(title)}</h2>
                      <p>
                        <code>{url}</code>
                      </p>
                      <p class="downloads">
                        <CopyButton text={url} label={t(title)} />
                        <a class="button secondary" href={path(format)} download={`products.${format}`}>
                          {t('feeds.download')}
                        </a>
                      </p>
                    </li>
                  );
                })}
              </ul>
              <p class="hint">{t('feeds.keyHint')}</p>
            </>
          );
        }}
      </QueryState>
    </>
  );
}
