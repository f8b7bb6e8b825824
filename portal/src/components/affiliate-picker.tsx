import { useEffect, useState } from 'preact/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ok } from '../api.js';
import { useMessages } from '../i18n/index.js';

/** Typing pauses this long before the search runs. */
const SEARCH_PAUSE_MS = 300;
/** The service searches from two characters on. */
const SEARCH_MIN = 2;

/**
 * Chooses an affiliate a brand may give a coupon code to, as a form field named `name`: at first
 * the brand's own affiliates; typed in, a name or id finds any active affiliate of the network for
 * a public brand (even one that has made no link), only the approved ones for a private brand.
 */
export function AffiliatePicker({ id, name = 'affiliateId' }: { id: string; name?: string }) {
  const { t, number, refusal } = useMessages();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim().length >= SEARCH_MIN ? typed.trim() : ''), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const isPublic = profile.data?.isPublic;
  const affiliates = useQuery({
    queryKey: ['coupon-affiliates', isPublic, search],
    enabled: isPublic !== undefined,
    // A private brand gives codes to the affiliates it approved only.
    queryFn: async () => ok(await api.GET('/advertiser/affiliates', { params: { query: { limit: 100, ...(search && { q: search }), ...(isPublic === false && { status: 'approved' as const }) } } })).data,
    placeholderData: keepPreviousData,
  });
  const found = affiliates.data ?? [];
  // A choice the new search no longer holds is dropped, so the form never sends an unseen one.
  useEffect(() => {
    if (chosen && !found.some((a) => a.affiliateId === chosen)) setChosen('');
  }, [found, chosen]);
  const hintId = `${id}-search-hint`;
  return (
    <>
      <div class="field">
        <label for={`${id}-search`}>{t('affiliatePicker.search')}</label>
        <input
          id={`${id}-search`}
          type="search"
          value={typed}
          maxLength={100}
          autoComplete="off"
          aria-describedby={hintId}
          onInput={(e) => setTyped(e.currentTarget.value)}
          // Enter searches at once; it does not send the form around the field.
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            setSearch(typed.trim().length >= SEARCH_MIN ? typed.trim() : '');
          }}
        />
        <span id={hintId} class="hint">
          {t(isPublic === false ? 'affiliatePicker.privateHint' : 'affiliatePicker.publicHint')}
        </span>
      </div>
      <div class="field">
        <label for={id}>{t('coupons.affiliate')}</label>
        <select id={id} name={name} required value={chosen} onChange={(e) => setChosen(e.currentTarget.value)} aria-describedby={`${id}-found`}>
          <option value="">{t('coupons.chooseAffiliate')}</option>
          {found.map((a) => (
            <option key={a.affiliateId} value={a.affiliateId}>
              {a.name} ({a.affiliateId})
            </option>
          ))}
        </select>
        <span id={`${id}-found`} class="hint" aria-live="polite">
          {affiliates.isError ? refusal(affiliates.error) : affiliates.isFetching ? t('common.loading') : search ? t('affiliatePicker.found', { count: number(found.length), search }) : ''}
        </span>
      </div>
    </>
  );
}
