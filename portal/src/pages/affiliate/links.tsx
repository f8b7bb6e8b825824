import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { CopyButton } from '../../components/copy-button.js';
import { QrCode } from '../../components/qr-code.js';

/** The link builder: a brand page link for every channel of the affiliate, and the links made so far. */
export function Links() {
  const { t, number } = useMessages();
  const queries = useQueryClient();
  const [brandId, setBrandId] = useState(new URLSearchParams(window.location.search).get('brand') ?? '');
  const [search, setSearch] = useState('');
  // The brands to choose from: the first page of a search, and the one chosen on the brands page.
  const brands = useQuery({
    queryKey: ['brands', 'choice', search, brandId],
    queryFn: async () => {
      const found = ok(await api.GET('/affiliate/brands', { params: { query: { limit: 20, ...(search && { search }) } } })).data;
      if (!brandId || found.some((b) => b.id === brandId)) return found;
      const chosen = await api.GET('/affiliate/brands/{id}', { params: { path: { id: brandId } } });
      return chosen.data ? [chosen.data.data, ...found] : found;
    },
    placeholderData: (previous) => previous,
  });
  const mine = useQuery({ queryKey: ['links', 'BrandPage'], queryFn: async () => ok(await api.GET('/affiliate/shortener/urls', { params: { query: { type: 'BrandPage' } } })) });
  const make = useMutation({
    mutationFn: async (organizationId: string) => ok(await api.POST('/affiliate/shortener/url', { body: { organizationId, type: 'BrandPage' } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['links'] }),
  });
  return (
    <>
      <h1>{t('links.title')}</h1>
      <QueryState query={brands}>
        {(list) => (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (brandId) make.mutate(brandId);
            }}
          >
            <label>
              {t('links.findBrand')}
              <input type="search" value={search} onInput={(e) => setSearch((e.currentTarget).value)} />
            </label>
            <div class="field">
              <label for="link-brand">{t('links.brand')}</label>
              <select id="link-brand" value={brandId} required onChange={(e) => setBrandId((e.currentTarget).value)}>
                <option value="">{t('links.chooseBrand')}</option>
                {list.map((brand) => (
                  <option key={brand.id} value={brand.id}>
                    {brand.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" disabled={make.isPending}>
              {t('links.create')}
            </button>
          </form>
        )}
      </QueryState>
      {make.isError && <p role="alert" class="error">{t('common.error', { message: make.error.message })}</p>}
      {make.data && (
        <ul class="cards">
          {make.data.map((channel) => (
            <li key={channel.id} class="card">
              <h2>{channel.name}</h2>
              {channel.message ? (
                <p class="blocked">{t('links.channelBlocked', { message: channel.message })}</p>
              ) : (
                channel.shortUrls.map((url) => (
                  <div key={url} class="link">
                    <a href={url} target="_blank" rel="noreferrer" data-testid="short-url">
                      {url}
                    </a>
                    <CopyButton text={url} label={channel.name} />
                    <QrCode text={url} label={t('links.qr', { channel: channel.name })} />
                  </div>
                ))
              )}
            </li>
          ))}
        </ul>
      )}
      <h2>{t('links.mine')}</h2>
      <QueryState query={mine}>
        {(groups) => {
          const links = groups.flatMap((g) => g.data);
          return links.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">{t('links.clicks')}</th>
                </tr>
              </thead>
              <tbody>
                {links.map((link) => (
                  <tr key={link.urlCode}>
                    <td>{link.shortUrl}</td>
                    <td data-testid={`clicks-${link.urlCode}`}>{number(link.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          );
        }}
      </QueryState>
    </>
  );
}
