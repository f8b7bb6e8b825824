import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { useClickFactWords } from '../../components/click-facts.js';
import { percentText } from '../../components/network-terms.js';
import { useActionNotice } from '../../components/action-notice.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import type { components } from '../../../../packages/client/index.js';

type Held = components['schemas']['HeldOrder'];
type HoldReason = Held['holdReasons'][number];
const HOLD_REASONS: ReadonlySet<string> = new Set<HoldReason>(['click_to_order_too_fast', 'self_referral', 'conversion_rate', 'conversions_per_click', 'datacenter_traffic']);
type Decision = { orderIds: string[]; decision: 'release' | 'decline'; reason?: string };
const PAGE_SIZE = 50;

/** The fraud review queue: each held conversion with the facts of its hold, released or declined (with the reason the affiliate reads), one or several at once. */
export function OperatorHolds() {
  const { t, refusal } = useMessages();
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const { say, notice } = useActionNotice();
  const held = useQuery({
    queryKey: ['operator-holds', page],
    queryFn: async () => ok(await api.GET('/operator/holds', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  const decide = useMutation({
    mutationFn: async (body: Decision) => ok(await api.POST('/operator/holds/decisions', { body })).data,
    onSuccess: (outcomes) => {
      const released = outcomes.filter((o) => o.outcome === 'released').length;
      const declined = outcomes.filter((o) => o.outcome === 'declined').length;
      const untouched = outcomes.length - released - declined;
      say(
        ...(released > 0 ? [t('operator.holds.releasedCount', { count: released })] : []),
        ...(declined > 0 ? [t('operator.holds.declinedCount', { count: declined })] : []),
        ...(untouched > 0 ? [t('operator.holds.untouchedCount', { count: untouched })] : []),
      );
      setChosen(new Set());
      void queries.invalidateQueries({ queryKey: ['operator-holds'] });
      void queries.invalidateQueries({ queryKey: ['operator-audit'] });
    },
  });
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  return (
    <>
      <h1>{t('operator.holds.title')}</h1>
      <p class="hint">{t('operator.holds.hint')}</p>
      {decide.isError && (
        <p role="alert" class="error">
          {refusal(decide.error)}
        </p>
      )}
      {notice}
      {chosen.size > 0 && <DecisionForm label={t('operator.applications.bulk', { count: chosen.size })} busy={decide.isPending} onDecide={(d) => decide.mutate({ orderIds: [...chosen], ...d })} />}
      <QueryState query={held}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('operator.holds.none')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('operator.applications.choose')}</th>
                    <th scope="col">{t('operator.holds.order')}</th>
                    <th scope="col">{t('operator.holds.affiliate')}</th>
                    <th scope="col">{t('operator.holds.click')}</th>
                    <th scope="col">{t('operator.holds.rules')}</th>
                    <th scope="col">{t('operator.holds.record')}</th>
                    <th scope="col">{t('operator.applications.decision')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((o) => (
                    <HeldRow key={o.id} order={o} chosen={chosen.has(o.id)} onToggle={() => toggle(o.id)} busy={decide.isPending} onDecide={(d) => decide.mutate({ orderIds: [o.id], ...d })} />
                  ))}
                </tbody>
              </table>
              <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} />
            </>
          )
        }
      </QueryState>
    </>
  );
}

function HeldRow({ order: o, chosen, onToggle, busy, onDecide }: { order: Held; chosen: boolean; onToggle: () => void; busy: boolean; onDecide: (d: Omit<Decision, 'orderIds'>) => void }) {
  const { t, money, dateTime, date, number, locale } = useMessages();
  const facts = useClickFactWords();
  const seconds = new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'short', maximumFractionDigits: 1 });
  /** A rule's facts in a sentence: the figure the order reached and the limit the rule holds at. */
  const factsText = (rule: Record<string, unknown>): string => {
    const n = (name: string) => Number(rule[name] ?? 0);
    switch (rule['rule']) {
      case 'click_to_order_too_fast':
        return t('operator.holds.fact.click_to_order_too_fast', { seconds: seconds.format(n('seconds')), minimum: seconds.format(n('minimumSeconds')) });
      case 'conversion_rate':
        return t('operator.holds.fact.conversion_rate', { day: date(String(rule['day'])), conversions: n('conversions'), clicks: n('countedClicks'), rate: percentText(n('rateBp'), locale), maximum: percentText(n('maximumBp'), locale), minimum: n('minimumClicks') });
      case 'conversions_per_click':
        return t('operator.holds.fact.conversions_per_click', { conversions: n('conversions'), maximum: number(n('maximum')) });
      case 'datacenter_traffic':
        return t('operator.holds.fact.datacenter_traffic', { day: date(String(rule['day'])), datacenter: n('datacenterClicks'), clicks: n('countedClicks'), share: percentText(n('shareBp'), locale), maximum: percentText(n('maximumBp'), locale), minimum: n('minimumClicks') });
      default:
        return '';
    }
  };
  return (
    <tr data-testid={`held-${o.orderId}`}>
      <td>
        <input type="checkbox" checked={chosen} onChange={onToggle} aria-label={t('operator.holds.choose', { order: o.orderId })} />
      </td>
      <th scope="row">
        {o.orderId}
        <span class="hint note">
          {o.brand.name ?? o.brand.id} · {money(o.value, o.currency)} · {t('operator.holds.commission', { amount: money(o.commission, o.currency) })}
        </span>
      </th>
      <td>{o.affiliate.name ?? o.affiliate.id}</td>
      <td>
        {o.click ? (
          <span class="sent">
            {o.click.at && dateTime(o.click.at)}
            {[o.click.country && facts.country(o.click.country), o.click.device && facts.device(o.click.device), o.click.browser, o.click.os, o.click.asn !== undefined ? `AS${o.click.asn}` : undefined].filter(Boolean).map((fact) => ` · ${fact}`)}
          </span>
        ) : (
          '—'
        )}
      </td>
      <td class="change">
        {o.rules.map((rule, i) => (
          <span key={i} class="note">
            <strong>{HOLD_REASONS.has(String(rule.rule)) ? t(`operator.holds.rule.${rule.rule as HoldReason}`) : t('hold.reason.other')}</strong>
            {factsText(rule) && <span class="facts">{factsText(rule)}</span>}
          </span>
        ))}
      </td>
      <td>{t('operator.holds.recordLine', { orders: o.affiliateRecord.orders, held: o.affiliateRecord.everHeld, declined: o.affiliateRecord.fraudDeclined })}</td>
      <td>
        <DecisionForm label={o.orderId} busy={busy} onDecide={onDecide} />
      </td>
    </tr>
  );
}

/** Release, or decline with the reason the affiliate reads. */
function DecisionForm({ label, busy, onDecide }: { label: string; busy: boolean; onDecide: (d: Omit<Decision, 'orderIds'>) => void }) {
  const { t } = useMessages();
  const [missing, setMissing] = useState(false);
  return (
    <form
      class="claim-answer"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        const reason = fieldText(e.currentTarget, 'reason').trim();
        setMissing(!reason);
        if (reason) onDecide({ decision: 'decline', reason });
      }}
    >
      <button type="button" disabled={busy} onClick={() => onDecide({ decision: 'release' })} aria-label={t('operator.holds.releaseNamed', { order: label })}>
        {t('operator.holds.release')}
      </button>
      <label>
        {t('operator.holds.reason')}
        <input name="reason" maxLength={1000} aria-invalid={missing} />
      </label>
      {missing && <span class="error">{t('operator.applications.reasonRequired')}</span>}
      <button type="submit" class="secondary" disabled={busy} aria-label={t('operator.holds.declineNamed', { order: label })}>
        {t('operator.applications.decline')}
      </button>
    </form>
  );
}
