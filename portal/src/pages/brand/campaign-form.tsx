import { useEffect, useRef, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { Choice } from '../../components/choice.js';
import { fieldText } from '../../forms.js';
import { dayEnd, dayStart, localDay, timeZone, today } from '../../local-days.js';
import { BannerFields } from './campaign-banners.js';
import type { components, paths } from '../../../../packages/client/index.js';

export type BrandCampaign = components['schemas']['BrandCampaign'];
type Kind = BrandCampaign['type'];
type LinkKind = NonNullable<BrandCampaign['offerType']>;
type CampaignBody = paths['/advertiser/campaigns/{id}']['put']['requestBody']['content']['application/json'];

const KINDS: ReadonlyArray<readonly [Kind, MessageKey]> = [
  ['Offer', 'campaignForm.kindOffer'],
  ['GenericCoupon', 'campaignForm.kindGeneric'],
  ['PersonalCoupon', 'campaignForm.kindPersonal'],
];
const KIND_HINTS: Record<Kind, MessageKey> = { Offer: 'campaignForm.kindOfferHint', GenericCoupon: 'campaignForm.kindGenericHint', PersonalCoupon: 'campaignForm.kindPersonalHint' };
const LINK_KINDS: ReadonlyArray<readonly [LinkKind, MessageKey]> = [
  ['Url', 'campaignForm.linksReady'],
  ['Spreadsheet', 'campaignForm.linksOwn'],
];
/** A personal code is given to an affiliate as a coupon: the service's rule for coupon codes. */
const PERSONAL_CODE_PATTERN = '[A-Za-z0-9_\\-]{3,40}';

/** A new campaign's id: its name in plain letters, and a random tail so two of one name stay apart. */
export function campaignIdFor(name: string): string {
  const base = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
  const tail = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => (b % 36).toString(36)).join('');
  return `${base || 'campaign'}-${tail}`;
}

/** Categories as typed, separated by commas. */
const categoriesOf = (text: string) => [...new Set(text.split(',').map((c) => c.trim()).filter(Boolean))];

/**
 * Creates a campaign, or changes one: its kind, name, days (in the person's time zone), what the
 * kind needs (an offer's page, a coupon's code), description, categories and banners. The whole
 * campaign is sent, so what this form does not show (a ready-made e-mail) is sent back as it was.
 */
export function CampaignForm({ campaign, onSaved, onCancel }: { campaign?: BrandCampaign; onSaved: (saved: BrandCampaign, created: boolean) => void; onCancel: () => void }) {
  const { t, refusal } = useMessages();
  const [kind, setKind] = useState<Kind>(campaign?.type ?? 'Offer');
  const [linkKind, setLinkKind] = useState<LinkKind>(campaign?.offerType ?? 'Url');
  const [banners, setBanners] = useState<string[]>(campaign?.mediaKit.banners ?? []);
  const [problem, setProblem] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const domains = (profile.data?.domains ?? []).join(', ');
  const save = useMutation({
    mutationFn: async ({ id, body }: { id: string; body: CampaignBody }) => {
      const result = await api.PUT('/advertiser/campaigns/{id}', { params: { path: { id } }, body });
      return { saved: ok(result).data, created: result.response.status === 201 };
    },
    onSuccess: ({ saved, created }) => onSaved(saved, created),
  });
  const startDay = campaign ? localDay(campaign.period.startAt) : today();
  const endDay = campaign ? localDay(campaign.period.endAt) : '';
  const isOffer = kind === 'Offer';
  const urlRequired = isOffer && linkKind === 'Url';

  const submit = (form: HTMLFormElement) => {
    setProblem('');
    const name = fieldText(form, 'name').trim();
    const start = fieldText(form, 'start');
    const end = fieldText(form, 'end');
    // A day left as it was keeps its moment: a campaign ended at 15:42 stays ended then.
    const startAt = campaign && start === startDay ? campaign.period.startAt : dayStart(start);
    const endAt = campaign && end === endDay ? campaign.period.endAt : dayEnd(end);
    if (!startAt || !endAt) return setProblem(t('campaignForm.badDay'));
    if (Date.parse(startAt) > Date.parse(endAt)) return setProblem(t('campaignForm.endBeforeStart'));
    const url = fieldText(form, 'url').trim();
    const body: CampaignBody = {
      name,
      type: kind,
      period: { startAt, endAt },
      description: fieldText(form, 'description').trim(),
      categories: categoriesOf(fieldText(form, 'categories')),
      isHighlight: new FormData(form).has('highlight'),
      ...(isOffer ? { offerType: linkKind } : { code: fieldText(form, 'code').trim() }),
      ...(url && { url }),
      mediaKit: { banners: banners.map((b) => b.trim()).filter(Boolean), emailMarketing: campaign?.mediaKit.emailMarketing ?? null },
    };
    save.mutate({ id: campaign?.id ?? campaignIdFor(name), body });
  };

  return (
    <form
      class="stacked campaign-form card"
      aria-labelledby="campaign-form-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit(e.currentTarget);
      }}
    >
      <h2 id="campaign-form-title" ref={heading} tabIndex={-1}>
        {campaign ? t('campaignForm.editTitle', { name: campaign.name }) : t('campaignForm.newTitle')}
      </h2>
      <Choice id="campaign-kind" label={t('campaignForm.kind')} value={kind} choices={KINDS} onChange={setKind} />
      <p class="hint">{t(KIND_HINTS[kind])}</p>
      <div class="field wide">
        <label for="campaign-name">{t('campaignForm.name')}</label>
        <input id="campaign-name" name="name" required maxLength={300} defaultValue={campaign?.name ?? ''} />
      </div>
      <div class="days">
        <div class="field">
          <label for="campaign-start">{t('campaignForm.start')}</label>
          <input id="campaign-start" name="start" type="date" required defaultValue={startDay} aria-describedby="campaign-days-hint" />
        </div>
        <div class="field">
          <label for="campaign-end">{t('campaignForm.end')}</label>
          <input id="campaign-end" name="end" type="date" required defaultValue={endDay} aria-describedby="campaign-days-hint" />
        </div>
      </div>
      <p id="campaign-days-hint" class="hint">
        {t('campaignForm.daysHint', { zone: timeZone() })}
      </p>
      {isOffer && <Choice id="campaign-links" label={t('campaignForm.links')} value={linkKind} choices={LINK_KINDS} onChange={setLinkKind} />}
      <div class="field wide">
        <label for="campaign-url">{t(isOffer ? 'campaignForm.offerUrl' : 'campaignForm.couponUrl')}</label>
        <input id="campaign-url" name="url" type="url" inputMode="url" maxLength={2048} required={urlRequired} defaultValue={campaign?.url ?? ''} placeholder="https://" aria-describedby="campaign-url-hint" />
        <span id="campaign-url-hint" class="hint">
          {t(urlRequired ? 'campaignForm.urlHint' : 'campaignForm.urlOptionalHint', { domains })}
        </span>
      </div>
      {!isOffer && (
        <div class="field">
          <label for="campaign-code">{t(kind === 'PersonalCoupon' ? 'campaignForm.personalCode' : 'campaignForm.publicCode')}</label>
          <input
            id="campaign-code"
            name="code"
            required
            autoComplete="off"
            maxLength={kind === 'PersonalCoupon' ? 40 : 100}
            pattern={kind === 'PersonalCoupon' ? PERSONAL_CODE_PATTERN : undefined}
            defaultValue={campaign?.code ?? ''}
            aria-describedby="campaign-code-hint"
          />
          <span id="campaign-code-hint" class="hint">
            {t(kind === 'PersonalCoupon' ? 'campaignForm.personalCodeHint' : 'campaignForm.publicCodeHint')}
          </span>
        </div>
      )}
      <div class="field wide">
        <label for="campaign-description">{t('campaignForm.description')}</label>
        <textarea id="campaign-description" name="description" rows={4} maxLength={20_000} defaultValue={campaign?.description ?? ''} aria-describedby="campaign-description-hint" />
        <span id="campaign-description-hint" class="hint">
          {t('campaignForm.descriptionHint')}
        </span>
      </div>
      <div class="field wide">
        <label for="campaign-categories">{t('campaignForm.categories')}</label>
        <input id="campaign-categories" name="categories" defaultValue={(campaign?.categories ?? []).join(', ')} aria-describedby="campaign-categories-hint" />
        <span id="campaign-categories-hint" class="hint">
          {t('campaignForm.categoriesHint')}
        </span>
      </div>
      <label class="check">
        <input type="checkbox" name="highlight" defaultChecked={campaign?.isHighlight ?? false} />
        {t('campaignForm.highlight')}
      </label>
      <BannerFields banners={banners} onChange={setBanners} />
      {(problem || save.error) && (
        <p role="alert" class="error">
          {problem || (save.error && refusal(save.error, { values: { domains } }))}
        </p>
      )}
      <div class="choices">
        <button type="submit" disabled={save.isPending}>
          {campaign ? t('common.save') : t('campaignForm.create')}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
