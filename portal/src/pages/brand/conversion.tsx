import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { CommissionExplanation } from '../../components/commission-explanation.js';
import { MoneyField, moneyField } from '../../components/money-field.js';
import { HoldReasons, isHeld } from '../../components/hold-reasons.js';
import { statusMessage } from '../../statuses.js';
import { useChangeWords } from '../../components/change-words.js';
import type { paths } from '../../../../packages/client/index.js';

type Detail = paths['/advertiser/conversions/{orderId}']['get']['responses'][200]['content']['application/json']['data'];
type Change = NonNullable<paths['/advertiser/conversions/{orderId}']['patch']['requestBody']>['content']['application/json'];

/** Who made a change: the brand, a person of the network, or the network's scheduled work. */
const AUTHORS: Record<string, MessageKey> = { brand: 'conversion.by.brand', operator: 'conversion.by.operator', network: 'conversion.by.network' };

/** One conversion: its facts, how its commission was computed, its history, and for a pending one approve, decline or correct (a refund, a returned item). */
export function ConversionDetail({ orderId }: { orderId: string }) {
  const messages = useMessages();
  const { t, money, date, dateTime, refusal } = messages;
  const words = useChangeWords();
  const queries = useQueryClient();
  const detail = useQuery({
    queryKey: ['conversion', orderId],
    queryFn: async () => ok(await api.GET('/advertiser/conversions/{orderId}', { params: { path: { orderId } } })).data,
  });
  const change = useMutation({
    mutationFn: async (body: Change) => ok(await api.PATCH('/advertiser/conversions/{orderId}', { params: { path: { orderId } }, body })),
    onSuccess: () => void queries.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'conversion' || q.queryKey[0] === 'conversions' || q.queryKey[0] === 'conversion-commission' }),
  });
  const explanation = useQuery({
    queryKey: ['conversion-commission', orderId],
    queryFn: async () => ok(await api.GET('/advertiser/conversions/{orderId}/commission', { params: { path: { orderId } } })).data,
  });
  return (
    <>
      <p>
        <Link href="/conversions">{t('conversion.back')}</Link>
      </p>
      <h1>{t('conversion.title', { order: orderId })}</h1>
      {change.isError && <p role="alert" class="error">{refusal(change.error)}</p>}
      <QueryState query={detail}>
        {(c) => (
          <>
            <dl class="facts wraps">
              <dt>{t('orders.status')}</dt>
              <dd>
                {isHeld(c) ? (
                  <span class="badge held" data-testid="conversion-status">
                    {t('hold.status')}
                  </span>
                ) : (
                  <span class={`badge ${c.status}`} data-testid="conversion-status">
                    {t(statusMessage(c.status) ?? 'status.pending')}
                  </span>
                )}
              </dd>
              <dt>{t('conversions.affiliate')}</dt>
              <dd>{c.affiliateId}</dd>
              <dt>{t('orders.date')}</dt>
              <dd>{date(c.createdAt)}</dd>
              <dt>{t('conversion.lockAt')}</dt>
              <dd data-testid="conversion-lock">
                {isHeld(c) ? (
                  t('hold.lockOnRelease')
                ) : (
                  <>
                    {dateTime(c.lockAt)}
                    {c.autoApproved && ` · ${t('conversion.autoApproved')}`}
                  </>
                )}
              </dd>
              <dt>{t('orders.value')}</dt>
              <dd data-testid="conversion-value">{money(c.value, c.currency)}</dd>
              <dt>{t('orders.commission')}</dt>
              <dd data-testid="conversion-commission">
                {money(c.commission, c.currency)} <span class={`badge ${c.commissionStatus}`}>{t(statusMessage(c.commissionStatus) ?? 'status.pending')}</span>
              </dd>
              {c.linkCode && (
                <>
                  <dt>{t('conversion.link')}</dt>
                  <dd>{c.linkCode}</dd>
                </>
              )}
              {c.coupon && (
                <>
                  <dt>{t('conversion.coupon')}</dt>
                  <dd data-testid="conversion-coupon">
                    <code>{c.coupon}</code>
                    {c.attribution === 'coupon' && ` · ${t('conversion.byCoupon')}`}
                  </dd>
                </>
              )}
            </dl>
            {isHeld(c) && c.status === 'pending' && <HoldExplanation conversion={c} />}
            {c.status === 'pending' && (
              <div class="actions">
                {!isHeld(c) && (
                  <button type="button" onClick={() => change.mutate({ status: 'approved' })}>
                    {t('conversions.approve')}
                  </button>
                )}
                <button type="button" class="danger" onClick={() => change.mutate({ status: 'canceled' })}>
                  {t('conversions.decline')}
                </button>
              </div>
            )}
            <QueryState query={explanation}>{(e) => <CommissionExplanation explanation={e} />}</QueryState>
            {c.status === 'pending' && <Correction conversion={c} onCorrect={(body) => change.mutate(body)} pending={change.isPending} />}
            <h2>{t('conversion.history')}</h2>
            {c.history.length === 0 ? (
              <p>{t('conversion.noHistory')}</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('orders.date')}</th>
                    <th scope="col">{t('conversion.change')}</th>
                    <th scope="col">{t('conversion.by')}</th>
                  </tr>
                </thead>
                <tbody>
                  {c.history.map((event, i) => (
                    <tr key={i}>
                      <td>{date(event.at)}</td>
                      <td>{t('conversion.changed', { field: words.label(event.field) ?? event.field, from: words.value(event.field, event.from, c), to: words.value(event.field, event.to, c) })}</td>
                      <td>{AUTHORS[event.by] ? t(AUTHORS[event.by]!) : event.by}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </QueryState>
    </>
  );
}

/** What the network's review of a held order means for the brand: why, who decides, and what follows either way. */
function HoldExplanation({ conversion }: { conversion: Detail }) {
  const { t } = useMessages();
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const days = profile.data?.validationDays;
  return (
    <section class="notice" aria-labelledby="hold-title" data-testid="hold-explanation">
      <h2 id="hold-title">{t('hold.title')}</h2>
      <HoldReasons conversion={conversion} />
      <p class="hint">{t('hold.limits')}</p>
      <p>{t('hold.whoDecides')}</p>
      <ul>
        <li>{days === undefined ? t('hold.onReleaseDays') : t('hold.onRelease', { days: days })}</li>
        <li>{t('hold.onCancel')}</li>
      </ul>
      <p>{t('hold.meanwhile')}</p>
    </section>
  );
}

/** Correcting a pending order: fewer of an item (returned), and the value that goes with it. */
function Correction({ conversion, onCorrect, pending }: { conversion: Detail; onCorrect: (body: Change) => void; pending: boolean }) {
  const { t, money, locale } = useMessages();
  const [quantities, setQuantities] = useState(() => conversion.items.map((item) => item.quantity));
  const itemsSum = conversion.items.reduce((sum, item, i) => sum + item.price * (quantities[i] ?? 0), 0);
  return (
    <form
      class="stacked"
      onSubmit={(e) => {
        e.preventDefault();
        // The field refused an unreadable amount already; empty: the items' total.
        const typed = moneyField(e.currentTarget, 'value', locale);
        const items = conversion.items.map((item, i) => ({ ...item, quantity: quantities[i] ?? 0 })).filter((item) => item.quantity > 0);
        onCorrect({ value: typed ?? itemsSum, items });
      }}
    >
      <h2>{t('conversion.correct')}</h2>
      <p class="hint">{t('conversion.correctHint')}</p>
      {conversion.items.map((item, i) => (
        <label key={item.id} class="check">
          <input
            type="number"
            min={0}
            max={item.quantity}
            value={quantities[i]}
            onInput={(e) => setQuantities(quantities.map((q, j) => (j === i ? Number(e.currentTarget.value) : q)))}
            aria-label={t('conversion.quantityOf', { item: item.name })}
          />
          {t('conversion.itemLine', { item: item.name, price: money(item.price, conversion.currency), quantity: item.quantity })}
        </label>
      ))}
      <MoneyField name="value" label={t('conversion.newValue')} currency={conversion.currency} hint={t('conversion.newValueHint', { total: money(itemsSum, conversion.currency) })} />
      <button type="submit" disabled={pending}>
        {t('conversion.saveCorrection')}
      </button>
    </form>
  );
}
