import type { ComponentChildren } from 'preact';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { CopyButton } from '../../components/copy-button.js';
import { QrCode } from '../../components/qr-code.js';
import type { User } from '../../session.js';
import { usePayee } from './payee.js';
import { refuses } from './links.js';

/** The link types the links list answers without a campaign: a first link is one of them (or has been clicked). */
const FIRST_LINK_TYPES = ['BrandPage', 'Home', 'Custom'] as const;
const SUGGESTIONS = 3;

/** The affiliate's links so far: how many, and the newest. */
function useLinks() {
  return useQuery({
    queryKey: ['links', 'first-day'],
    queryFn: async () => {
      const lists = await Promise.all(
        FIRST_LINK_TYPES.map(async (type) => ok(await api.GET('/affiliate/shortener/urls', { params: { query: { type, limit: 1 } } }))[0]!),
      );
      const newest = lists
        .flatMap((list) => list.data)
        .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''))[0];
      // A total may be remembered for a few seconds: a link listed counts even when it does not yet.
      return { total: lists.reduce((sum, list) => sum + Math.max(list.meta.total, list.data.length), 0), newest };
    },
  });
}

/**
 * A new affiliate's way to a first click: channels, a brand, a first link, sharing it, payout
 * details (owners only: members cannot see them). Each step ticks from the account's data; the
 * list is gone once every step is done, and shows nothing while any of it is unknown.
 */
export function FirstDay({ me }: { me: User }) {
  const { t, number } = useMessages();
  const owner = me.role === 'owner';
  const channels = useQuery({ queryKey: ['channels'], queryFn: async () => ok(await api.GET('/affiliate/channels')).data });
  const links = useLinks();
  // Clicks of every time: a step once ticked stays ticked.
  const clicks = useQuery({
    queryKey: ['analytics', 'clicks', 'all'],
    queryFn: async () => ok(await api.GET('/affiliate/analytics', { params: { query: { event: 'clicks', groupBy: 'brands', interval: 'all' } } })).data,
  });
  // A private brand the affiliate sees has approved it: a brand found.
  const approved = useQuery({
    queryKey: ['brands', 'approved-any'],
    queryFn: async () => ok(await api.GET('/affiliate/brands', { params: { query: { isPublic: false, limit: 1 } } })).pagination.total,
  });
  const payee = usePayee(owner);
  const clicked = (clicks.data ?? []).reduce((sum, row) => sum + (row.clicks ?? 0), 0) > 0;
  const linked = (links.data?.total ?? 0) > 0 || clicked;
  const found = linked || (approved.data ?? 0) > 0;
  const suggestions = useQuery({
    queryKey: ['brands', 'first-day-suggestions'],
    enabled: channels.isSuccess && !found,
    queryFn: async () => ok(await api.GET('/affiliate/brands', { params: { query: { limit: 20 } } })).data,
  });
  const queries = [channels, links, clicks, approved, ...(owner ? [payee] : [])];
  if (queries.some((q) => !q.isSuccess)) return null;
  const list = channels.data ?? [];
  // Brands that take a link from every channel of the affiliate, highlighted ones first.
  const suggested = (suggestions.data ?? [])
    .filter((brand) => brand.network.active && list.every((channel) => !refuses(brand, channel.availableChannel.id)))
    .sort((a, b) => Number(b.network.trait.isHighlight) - Number(a.network.trait.isHighlight))
    .slice(0, SUGGESTIONS);
  const newest = links.data?.newest;
  const steps: Array<{ id: string; done: boolean; href: string; label: MessageKey; detail: ComponentChildren }> = [
    {
      id: 'channels',
      done: list.length > 0,
      href: '/channels',
      label: 'firstDay.channels',
      detail: list.length > 0 ? t('firstDay.channelsDone', { count: list.length, names: list.map((c) => c.name).join(', ') }) : t('firstDay.channelsHint'),
    },
    {
      id: 'brand',
      done: found,
      href: '/brands',
      label: 'firstDay.brand',
      detail: (
        <>
          {t('firstDay.brandHint')}
          {!found && suggested.length > 0 && (
            <>
              {' '}
              {t('firstDay.suggested')}
              <ul class="suggested">
                {suggested.map((brand) => (
                  <li key={brand.id}>
                    <Link href={`/brands/${encodeURIComponent(brand.id)}`}>{brand.name}</Link>
                    {brand.categories.length > 0 && ` (${brand.categories.join(', ')})`}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      ),
    },
    { id: 'link', done: linked, href: '/links', label: 'firstDay.link', detail: t('firstDay.linkHint') },
    {
      id: 'share',
      done: clicked,
      href: '/links',
      label: 'firstDay.share',
      detail: (
        <>
          {t('firstDay.shareHint')}
          {newest && !clicked && (
            <div class="share" data-testid="first-day-newest">
              <span>{t('firstDay.yourLink', { channel: newest.channel.name })}</span>
              <code>{newest.shortUrl}</code>
              <CopyButton text={newest.shortUrl} label={newest.shortUrl} />
              <QrCode text={newest.shortUrl} label={t('links.qr', { channel: newest.channel.name })} />
            </div>
          )}
        </>
      ),
    },
    ...(owner ? [{ id: 'payee', done: payee.data !== null, href: '/payee', label: 'firstDay.payee' as MessageKey, detail: t('firstDay.payeeHint') }] : []),
  ];
  const done = steps.filter((s) => s.done).length;
  if (done === steps.length) return null;
  return (
    <section class="launch first-day" aria-labelledby="first-day-title" data-testid="first-day">
      <h2 id="first-day-title">{t('firstDay.title')}</h2>
      <p class="hint">{t('firstDay.hint')}</p>
      <p>
        <strong>{t('firstDay.progress', { done: number(done), count: number(steps.length) })}</strong>
      </p>
      <ol>
        {steps.map((step) => (
          <li key={step.id} class={step.done ? 'done' : undefined} data-testid={`first-day-${step.id}`} data-done={step.done}>
            <span class="tick" aria-hidden="true">
              {step.done ? '✓' : '○'}
            </span>
            <span>
              <Link href={step.href}>{t(step.label)}</Link> — <strong>{t(step.done ? 'firstDay.done' : 'firstDay.todo')}</strong>
            </span>
            <span class="hint">{step.detail}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
