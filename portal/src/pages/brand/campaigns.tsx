import { useEffect, useRef, useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { CampaignBadges } from '../../components/campaign-badges.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { AffiliatePicker } from '../../components/affiliate-picker.js';
import { fieldText } from '../../forms.js';
import { CampaignForm, type BrandCampaign } from './campaign-form.js';

const PAGE_SIZE = 25;
const KIND_NAMES: Record<BrandCampaign['type'], MessageKey> = { Offer: 'brandCampaigns.offer', GenericCoupon: 'brandCampaigns.genericCoupon', PersonalCoupon: 'brandCampaigns.personalCoupon' };

/** What is open above the list: the form for a new campaign or one being changed, or a personal code being given. */
type Open = { form: 'new' } | { form: 'edit'; campaign: BrandCampaign } | { form: 'give'; campaign: BrandCampaign } | undefined;

/** The brand's campaigns (offers, coupons with a public code, personal codes): create, change, end, delete; give a personal code to an affiliate. */
export function BrandCampaigns() {
  const { t, date, refusal } = useMessages();
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Open>();
  const [notice, setNotice] = useState('');
  const campaigns = useQuery({
    queryKey: ['brand-campaigns', page],
    queryFn: async () => ok(await api.GET('/advertiser/campaigns', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['brand-campaigns'] });
  const end = useMutation({
    mutationFn: async (campaign: BrandCampaign) => {
      const now = new Date().toISOString();
      // A campaign not started yet ends before it starts: both ends become now.
      const startAt = Date.parse(campaign.period.startAt) < Date.parse(now) ? campaign.period.startAt : now;
      return ok(await api.PATCH('/advertiser/campaigns/{id}', { params: { path: { id: campaign.id } }, body: { period: { startAt, endAt: now } } })).data;
    },
    onSuccess: (campaign) => {
      setNotice(t('brandCampaigns.ended', { name: campaign.name }));
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async (campaign: BrandCampaign) => {
      ok(await api.DELETE('/advertiser/campaigns/{id}', { params: { path: { id: campaign.id } } }));
      return campaign;
    },
    onSuccess: (campaign) => {
      if (open && open.form !== 'new' && open.campaign.id === campaign.id) setOpen(undefined);
      setNotice(t('brandCampaigns.deleted', { name: campaign.name }));
      refresh();
    },
  });
  const failure = end.error ?? remove.error;
  const opening = (next: Open) => {
    setNotice('');
    end.reset();
    remove.reset();
    setOpen(next);
  };
  return (
    <>
      <h1>{t('campaigns.title')}</h1>
      <p class="hint">{t('brandCampaigns.hint')}</p>
      {open === undefined && (
        <p>
          <button type="button" onClick={() => opening({ form: 'new' })}>
            {t('brandCampaigns.new')}
          </button>
        </p>
      )}
      {open && open.form !== 'give' && (
        <CampaignForm
          key={open.form === 'edit' ? open.campaign.id : 'new'}
          campaign={open.form === 'edit' ? open.campaign : undefined}
          onCancel={() => setOpen(undefined)}
          onSaved={(saved, created) => {
            setOpen(undefined);
            setNotice(t(created ? 'brandCampaigns.created' : 'brandCampaigns.saved', { name: saved.name }));
            refresh();
          }}
        />
      )}
      {open?.form === 'give' && (
        <GiveCode
          key={open.campaign.id}
          campaign={open.campaign}
          onCancel={() => setOpen(undefined)}
          onGiven={(text) => {
            setOpen(undefined);
            setNotice(text);
          }}
        />
      )}
      {notice && <p role="status">{notice}</p>}
      {failure && (
        <p role="alert" class="error">
          {refusal(failure)}
        </p>
      )}
      <h2>{t('brandCampaigns.list')}</h2>
      <QueryState query={campaigns}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('brandCampaigns.none')}</p>
          ) : (
            <>
              <p class="hint">{t('catalogue.campaignCount', { count: meta.total })}</p>
              <table class="campaigns">
                <thead>
                  <tr>
                    <th scope="col">{t('catalogue.campaign')}</th>
                    <th scope="col">{t('catalogue.status')}</th>
                    <th scope="col">{t('catalogue.period')}</th>
                    <th scope="col">{t('catalogue.code')}</th>
                    <th scope="col">{t('brandCampaigns.page')}</th>
                    <th scope="col">
                      <span class="visually-hidden">{t('team.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((campaign) => (
                    <tr key={campaign.id} data-testid={`campaign-${campaign.id}`}>
                      <th scope="row">
                        {campaign.name}
                        <span class="hint note">{t(KIND_NAMES[campaign.type])}</span>
                      </th>
                      <td>
                        <CampaignBadges campaign={campaign} />
                      </td>
                      <td>{t('campaigns.period', { from: date(campaign.period.startAt), to: date(campaign.period.endAt) })}</td>
                      <td class="code">{campaign.code ? <code class="coupon">{campaign.code}</code> : '—'}</td>
                      <td class="wrap">{campaign.url}</td>
                      <td>
                        <div class="row-actions">
                          <button type="button" class="secondary" aria-label={t('brandCampaigns.editNamed', { name: campaign.name })} onClick={() => opening({ form: 'edit', campaign })}>
                            {t('brandCampaigns.edit')}
                          </button>
                          {campaign.type === 'PersonalCoupon' && campaign.code && (
                            <button type="button" class="secondary" aria-label={t('brandCampaigns.giveNamed', { name: campaign.name })} onClick={() => opening({ form: 'give', campaign })}>
                              {t('brandCampaigns.give')}
                            </button>
                          )}
                          {campaign.status !== 'expired' && (
                            <ConfirmButton
                              class="secondary"
                              disabled={end.isPending}
                              aria-label={t('brandCampaigns.endNamed', { name: campaign.name })}
                              question={t('brandCampaigns.confirmEnd', { name: campaign.name })}
                              onConfirm={() => end.mutate(campaign)}
                            >
                              {t('brandCampaigns.end')}
                            </ConfirmButton>
                          )}
                          <ConfirmButton
                            class="danger"
                            disabled={remove.isPending}
                            aria-label={t('brandCampaigns.deleteNamed', { name: campaign.name })}
                            question={t('brandCampaigns.confirmDelete', { name: campaign.name })}
                            onConfirm={() => remove.mutate(campaign)}
                          >
                            {t('brandCampaigns.delete')}
                          </ConfirmButton>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} label={t('nav.campaigns')} />
            </>
          )
        }
      </QueryState>
    </>
  );
}

/** Gives a personal-coupon campaign's code to one affiliate, found by name or id (moving it from another, if it had one). */
function GiveCode({ campaign, onGiven, onCancel }: { campaign: BrandCampaign; onGiven: (notice: string) => void; onCancel: () => void }) {
  const { t, refusal } = useMessages();
  const queries = useQueryClient();
  const code = campaign.code ?? '';
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const give = useMutation({
    mutationFn: async (affiliateId: string) => ok(await api.PUT('/advertiser/coupons/{code}', { params: { path: { code } }, body: { affiliateId, campaignId: campaign.id } })).data,
    onSuccess: (coupon) => {
      void queries.invalidateQueries({ queryKey: ['brand-coupons'] });
      onGiven(t('brandCampaigns.given', { code: coupon.code, affiliate: coupon.affiliateName ?? coupon.affiliateId }));
    },
  });
  return (
    <form
      class="stacked card"
      aria-labelledby="give-code-title"
      onSubmit={(e) => {
        e.preventDefault();
        give.mutate(fieldText(e.currentTarget, 'affiliateId'));
      }}
    >
      <h2 id="give-code-title" ref={heading} tabIndex={-1}>
        {t('brandCampaigns.giveTitle', { code })}
      </h2>
      <p class="hint">{t('brandCampaigns.giveHint', { name: campaign.name })}</p>
      <AffiliatePicker id="give-code-affiliate" />
      {give.error && (
        <p role="alert" class="error">
          {refusal(give.error)}
        </p>
      )}
      <div class="choices">
        <button type="submit" disabled={give.isPending}>
          {t('coupons.giveButton')}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
