import { useEffect, useRef, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { CopyButton } from '../../components/copy-button.js';
import { QrCode } from '../../components/qr-code.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import type { paths } from '../../../../packages/client/index.js';
import { blockReasonOf, type BlockReason } from '../../../../src/lib/link-block-reasons.js';

type LinkType = paths['/affiliate/shortener/url']['post']['requestBody']['content']['application/json']['type'];
const TYPES: Record<LinkType, MessageKey> = {
  BrandPage: 'links.type.BrandPage',
  Home: 'links.type.Home',
  Coupon: 'links.type.Coupon',
  Offer: 'links.type.Offer',
  Custom: 'links.type.Custom',
};
const BLOCK_REASONS: Record<BlockReason, MessageKey> = {
  approval: 'links.blockedApproval',
  inactive: 'links.blockedInactive',
  expired: 'links.blockedExpired',
  deactivated: 'links.blockedDeactivated',
  kind: 'links.kindRefused',
};
/** The campaign types each link type is made for. */
const CAMPAIGN_TYPES = { Coupon: ['PersonalCoupon', 'GenericCoupon'], Offer: ['Offer'] } as const;
const isLinkType = (value: string | null): value is LinkType => value !== null && value in TYPES;

/** What the page was opened with: /links?brand=…&type=Coupon&campaign=… or &url=… (a product page). */
function initial() {
  const params = new URLSearchParams(window.location.search);
  const url = params.get('url') ?? '';
  const type = params.get('type');
  return { brandId: params.get('brand') ?? '', type: isLinkType(type) ? type : url ? 'Custom' : 'BrandPage', featureId: params.get('campaign') ?? '', url };
}

type ChannelKind = paths['/affiliate/channels']['post']['requestBody']['content']['application/json']['availableChannelId'];
const KIND_NAMES: Record<ChannelKind, MessageKey> = {
  site: 'channels.kind.site',
  instagram: 'channels.kind.instagram',
  whatsapp: 'channels.kind.whatsapp',
  youtube: 'channels.kind.youtube',
  email: 'channels.kind.email',
  tiktok: 'channels.kind.tiktok',
  telegram: 'channels.kind.telegram',
  x: 'channels.kind.x',
};

/** A channel kind's name in the page's language (the service's name for a kind the portal does not know). */
export function useKindName() {
  const { t } = useMessages();
  return (kind: { id: string; name: string }) => (kind.id in KIND_NAMES ? t(KIND_NAMES[kind.id as ChannelKind]) : kind.name);
}

/** Whether a brand refuses links from a channel of this kind (allowedChannels left out: it takes every kind). */
export const refuses = (brand: { allowedChannels?: string[] } | undefined, kindId: string): boolean => Boolean(brand?.allowedChannels && !brand.allowedChannels.includes(kindId));

/** The link builder: a link of the chosen kind for the channels the affiliate picks (every one the brand accepts, unless unticked), shown at once, and the links made so far. */
export function Links() {
  const { t, refusal } = useMessages();
  const kindName = useKindName();
  const [unpicked, setUnpicked] = useState<string[]>([]);
  const [listed, setListed] = useState<(typeof LISTED_TYPES)[number]>('BrandPage');
  const made = useRef<HTMLElement>(null);
  const queries = useQueryClient();
  const [start] = useState(initial);
  const [brandId, setBrandId] = useState(start.brandId);
  const [type, setType] = useState<LinkType>(start.type);
  const [featureId, setFeatureId] = useState(start.featureId);
  const [search, setSearch] = useState('');
  // The brands to choose from: the first page of a search, and the one the page was opened with.
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
  const campaignTypes = type === 'Coupon' || type === 'Offer' ? CAMPAIGN_TYPES[type] : undefined;
  const campaigns = useQuery({
    queryKey: ['campaigns', 'choice', brandId, type],
    enabled: Boolean(brandId && campaignTypes),
    queryFn: async () => ok(await api.GET('/affiliate/campaigns', { params: { query: { organizationId: brandId, types: [...campaignTypes!], limit: 20 } } })).data,
  });
  const channels = useQuery({ queryKey: ['channels'], queryFn: async () => ok(await api.GET('/affiliate/channels')).data });
  const brand = brands.data?.find((b) => b.id === brandId);
  const picked = (channels.data ?? []).filter((channel) => !refuses(brand, channel.availableChannel.id) && !unpicked.includes(channel.id));
  const make = useMutation({
    mutationFn: async (body: paths['/affiliate/shortener/url']['post']['requestBody']['content']['application/json']) => ok(await api.POST('/affiliate/shortener/url', { body })),
    onSuccess: (_, body) => {
      // The list below shows links of the kind just made, when it lists that kind.
      if ((LISTED_TYPES as readonly string[]).includes(body.type)) setListed(body.type as (typeof LISTED_TYPES)[number]);
      void queries.invalidateQueries({ queryKey: ['links'] });
      void queries.invalidateQueries({ queryKey: ['brands'] });
    },
  });
  // The link just made comes into sight (below the form on a phone).
  useEffect(() => {
    if (make.data) made.current?.scrollIntoView({ block: 'nearest' });
  }, [make.data]);
  return (
    <>
      <h1>{t('links.title')}</h1>
      <QueryState query={brands}>
        {(list) => (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const text = (name: string) => fieldText(form, name).trim();
              make.mutate({
                organizationId: brandId,
                type,
                ...(campaignTypes && { featureId }),
                ...(type === 'Custom' && { url: text('url') }),
                ...(text('mdasc') && { mdasc: text('mdasc') }),
                channelIds: picked.map((channel) => channel.id),
              });
            }}
          >
            <label>
              {t('links.findBrand')}
              <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
            </label>
            <div class="field">
              <label for="link-brand">{t('links.brand')}</label>
              <select id="link-brand" value={brandId} required onChange={(e) => setBrandId(e.currentTarget.value)}>
                <option value="">{t('links.chooseBrand')}</option>
                {list.map((brand) => (
                  <option key={brand.id} value={brand.id}>
                    {brand.name}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="link-type">{t('links.type')}</label>
              <select id="link-type" value={type} onChange={(e) => setType(e.currentTarget.value as LinkType)}>
                {Object.entries(TYPES).map(([value, key]) => (
                  <option key={value} value={value}>
                    {t(key)}
                  </option>
                ))}
              </select>
            </div>
            {campaignTypes && (
              <div class="field">
                <label for="link-campaign">{t('links.campaign')}</label>
                <select id="link-campaign" value={featureId} required onChange={(e) => setFeatureId(e.currentTarget.value)}>
                  <option value="">{t(brandId ? 'links.chooseCampaign' : 'links.chooseBrandFirst')}</option>
                  {(campaigns.data ?? []).map((campaign) => (
                    <option key={campaign.id} value={campaign.id}>
                      {campaign.code ? `${campaign.name} (${campaign.code})` : campaign.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {type === 'Custom' && (
              <label>
                {t('links.url')}
                <input name="url" type="url" required defaultValue={start.url} placeholder="https://" aria-describedby="link-url-hint" />
                <span id="link-url-hint" class="hint">
                  {t('links.urlHint')}
                </span>
              </label>
            )}
            <fieldset class="channels" aria-describedby="link-channels-hint">
              <legend>{t('links.channels')}</legend>
              <p id="link-channels-hint" class="hint">
                {t('links.channelsHint')}
              </p>
              {channels.isSuccess && channels.data.length === 0 && (
                <p>
                  <Link href="/channels">{t('links.noChannels')}</Link>
                </p>
              )}
              {(channels.data ?? []).map((channel) => {
                const refused = refuses(brand, channel.availableChannel.id);
                const kind = kindName(channel.availableChannel);
                return (
                  <label key={channel.id} class={refused ? 'check refused' : 'check'}>
                    <input
                      type="checkbox"
                      name="channel"
                      value={channel.id}
                      disabled={refused}
                      checked={!refused && !unpicked.includes(channel.id)}
                      aria-describedby={refused ? `refused-${channel.id}` : undefined}
                      onChange={(e) => {
                        const on = e.currentTarget.checked;
                        setUnpicked((was) => (on ? was.filter((id) => id !== channel.id) : [...was, channel.id]));
                      }}
                    />
                    <span>
                      {channel.name} ({kind})
                    </span>
                    {refused && (
                      <span id={`refused-${channel.id}`} class="hint">
                        {t('links.kindRefused', { kind })}
                      </span>
                    )}
                  </label>
                );
              })}
              {channels.isSuccess && channels.data.length > 0 && picked.length === 0 && <p class="hint">{t('links.noChannelPicked')}</p>}
            </fieldset>
            <label>
              {t('links.mdasc')}
              <input name="mdasc" maxLength={100} aria-describedby="link-mdasc-hint" />
              <span id="link-mdasc-hint" class="hint">
                {t('links.mdascHint')}
              </span>
            </label>
            <button type="submit" disabled={make.isPending || !brandId || picked.length === 0}>
              {t('links.create')}
            </button>
          </form>
        )}
      </QueryState>
      {campaigns.isError && <p role="alert" class="error">{refusal(campaigns.error)}</p>}
      {make.isError && <p role="alert" class="error">{refusal(make.error)}</p>}
      {make.data && (
        <section ref={made} class="made" aria-labelledby="made-title" data-testid="made-link">
          <h2 id="made-title">{t('links.made')}</h2>
          <p class="hint">{t('links.madeHint')}</p>
          <ChannelCards channels={make.data} />
        </section>
      )}
      <MyLinks type={listed} onType={setListed} />
    </>
  );
}

/** Why a channel got no link, from the service's message, in the page's language. */
export function useBlockedText() {
  const { t } = useMessages();
  const kindName = useKindName();
  return (channel: { availableChannel: { id: string; name: string }; message?: string }) => {
    const reason = blockReasonOf(channel.message ?? '', channel.availableChannel.name);
    return reason ? t(BLOCK_REASONS[reason], { kind: kindName(channel.availableChannel) }) : t('links.channelBlockedOther');
  };
}

/** One card per channel: its link with copy button and QR code, or why it has none. */
export function ChannelCards({ channels }: { channels: Array<{ id: string; name: string; availableChannel: { id: string; name: string }; shortUrls: string[]; message?: string }> }) {
  const { t } = useMessages();
  const blocked = useBlockedText();
  return (
    <ul class="cards">
      {channels.map((channel) => (
        <li key={channel.id} class="card">
          <h2>{channel.name}</h2>
          {channel.message ? (
            <p class="blocked">{blocked(channel)}</p>
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
  );
}

const LISTED_TYPES = ['BrandPage', 'Home', 'Custom'] as const;
const MINE_PAGE_SIZE = 25;

/** The affiliate's links of one kind, newest first, with their channel, clicks and state, a page at a time. */
function MyLinks({ type, onType }: { type: (typeof LISTED_TYPES)[number]; onType: (type: (typeof LISTED_TYPES)[number]) => void }) {
  const { t, number, date } = useMessages();
  const [page, setPage] = useState(1);
  // Another kind shown (chosen, or the kind of a link just made) starts at its first page.
  useEffect(() => setPage(1), [type]);
  const mine = useQuery({
    queryKey: ['links', type, page],
    queryFn: async () => {
      // The spec's shape: an array of one { data, meta }.
      const groups = ok(await api.GET('/affiliate/shortener/urls', { params: { query: { type, page, limit: MINE_PAGE_SIZE } } }));
      const links = groups.flatMap((g) => g.data);
      // A total may be remembered for a few seconds: the rows shown are never fewer than counted.
      const total = Math.max(groups[0]?.meta.total ?? 0, (page - 1) * MINE_PAGE_SIZE + links.length);
      return { links, total, pages: Math.max(groups[0]?.meta.totalPages ?? 1, Math.ceil(total / MINE_PAGE_SIZE)) };
    },
    placeholderData: (previous) => previous,
  });
  return (
    <>
      <h2>{t('links.mine')}</h2>
      <div class="field">
        <label for="mine-type">{t('links.showType')}</label>
        <select
          id="mine-type"
          value={type}
          onChange={(e) => {
            onType(e.currentTarget.value as (typeof LISTED_TYPES)[number]);
          }}
        >
          {LISTED_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(TYPES[value])}
            </option>
          ))}
        </select>
      </div>
      <QueryState query={mine}>
        {({ links, total, pages }) =>
          total === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <>
              <p class="hint">{t('links.count', { count: total })}</p>
              <table>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">{t('orders.brand')}</th>
                    <th scope="col">{t('links.channel')}</th>
                    <th scope="col">{t('links.labelColumn')}</th>
                    <th scope="col">{t('links.clicks')}</th>
                    <th scope="col">{t('links.state')}</th>
                    <th scope="col">{t('orders.date')}</th>
                  </tr>
                </thead>
                <tbody>
                  {links.map((link) => (
                    <tr key={link.urlCode}>
                      <td>
                        {link.shortUrl} <CopyButton text={link.shortUrl} label={link.shortUrl} />
                      </td>
                      <td>
                        <Link href={`/brands/${encodeURIComponent(link.organizationId)}`}>{link.brandName ?? t('orders.aBrand')}</Link>
                      </td>
                      <td>{link.channel.name}</td>
                      <td>{link.mdasc ?? '—'}</td>
                      <td data-testid={`clicks-${link.urlCode}`}>{number(link.count)}</td>
                      <td>
                        <span class={`badge ${link.active ? 'approved' : 'canceled'}`}>{t(link.active ? 'links.active' : 'links.inactive')}</span>
                      </td>
                      <td>{date(link.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={page} pages={Math.max(1, pages)} onPage={setPage} label={t('links.mine')} />
            </>
          )
        }
      </QueryState>
    </>
  );
}
