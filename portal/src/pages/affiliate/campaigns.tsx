import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { CopyButton } from '../../components/copy-button.js';
import { CampaignBadges } from '../../components/campaign-badges.js';
import { fieldText } from '../../forms.js';
import type { Campaign } from '../../../../packages/client/index.js';
import { ChannelCards, useBlockedText } from './links.js';

const PAGE_SIZE = 12;
const KINDS = { all: 'campaigns.all', coupons: 'campaigns.coupons', offers: 'campaigns.offers' } as const satisfies Record<string, MessageKey>;
type KindFilter = keyof typeof KINDS;
const TYPES_OF: Record<KindFilter, Array<Campaign['type']> | undefined> = { all: undefined, coupons: ['PersonalCoupon', 'GenericCoupon'], offers: ['Offer'] };

/** Coupons (with their code to copy) and offers of the brands the affiliate can work with. */
export function Campaigns() {
  const { t, date } = useMessages();
  const [kind, setKind] = useState<KindFilter>('all');
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const campaigns = useQuery({
    queryKey: ['campaigns', kind, name, page],
    queryFn: async () => {
      const types = TYPES_OF[kind];
      return ok(await api.GET('/affiliate/campaigns', { params: { query: { page, limit: PAGE_SIZE, ...(types && { types }), ...(name && { name }) } } }));
    },
    placeholderData: (previous) => previous,
  });
  return (
    <>
      <h1>{t('campaigns.title')}</h1>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          setKind(fieldText(form, 'kind') as KindFilter);
          setName(fieldText(form, 'name'));
          setPage(1);
        }}
      >
        <div class="field">
          <label for="campaign-kind">{t('campaigns.kind')}</label>
          <select id="campaign-kind" name="kind" defaultValue={kind}>
            {Object.entries(KINDS).map(([value, key]) => (
              <option key={value} value={value}>
                {t(key)}
              </option>
            ))}
          </select>
        </div>
        <label>
          {t('campaigns.name')}
          <input name="name" type="search" defaultValue={name} />
        </label>
        <button type="submit">{t('common.search')}</button>
      </form>
      <QueryState query={campaigns}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <>
              <ul class="cards campaigns">
                {data.map((campaign) => {
                  const coupon = campaign.type !== 'Offer';
                  return (
                    <li key={`${campaign.organizationId}/${campaign.id}`} class="card" data-testid={`campaign-${campaign.id}`}>
                      <h2>{campaign.name}</h2>
                      <p>
                        <CampaignBadges campaign={campaign} />
                      </p>
                      <p class="hint">{t('campaigns.period', { from: date(campaign.period.startAt), to: date(campaign.period.endAt) })}</p>
                      {campaign.code && (
                        <p class="link">
                          <code class="coupon">{campaign.code}</code>
                          <CopyButton text={campaign.code} label={t('campaigns.codeOf', { name: campaign.name })} />
                        </p>
                      )}
                      {campaign.offerType === 'Url' ? (
                        <OfferLinks channels={campaign.channels} />
                      ) : (
                        <Link href={`/links?brand=${encodeURIComponent(campaign.organizationId)}&type=${coupon ? 'Coupon' : 'Offer'}&campaign=${encodeURIComponent(campaign.id)}`}>
                          {t('brands.makeLink')}
                        </Link>
                      )}
                    </li>
                  );
                })}
              </ul>
              <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} />
            </>
          )
        }
      </QueryState>
    </>
  );
}

/** An Url offer's links (made for it automatically), folded away; one line when every channel is blocked alike. */
function OfferLinks({ channels }: { channels: Campaign['channels'] }) {
  const { t } = useMessages();
  const blocked = useBlockedText();
  const messages = new Set(channels.map((c) => c.message));
  const [only] = messages;
  if (channels.length > 0 && messages.size === 1 && only !== undefined) return <p class="blocked">{blocked(channels[0]!)}</p>;
  return (
    <details>
      <summary>{t('campaigns.links', { count: channels.length })}</summary>
      <ChannelCards channels={channels} />
    </details>
  );
}
