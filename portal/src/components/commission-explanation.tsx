// How an order's commission was computed, as the brand and its affiliate both read it: the click
// facts kept on the order, the attribution, the rules version, each line's arithmetic, the caps,
// the total and the changes after the report. The preview of the rules editor shows its lines
// with the same table (CommissionLines).
import type { components } from '../../../packages/client/index.js';
import { useMessages } from '../i18n/index.js';

export type OrderCommission = components['schemas']['OrderCommission'];
type Line = OrderCommission['lines'][number];
type Cap = OrderCommission['capped'][number];

/** One line's arithmetic in words and money: "2 × 10.00 % of $50.00 = $10.00". */
export function useLineArithmetic(): (line: Line, currency: string) => string {
  const { t, money, number } = useMessages();
  return (line, currency) => {
    if (line.transfer === 'cps') return t('explain.cps', { rate: number(line.rate ?? 0), base: money(line.base, currency), result: money(line.result, currency) });
    return t(line.per === 'item' ? 'explain.cpaItem' : 'explain.cpaOrder', { units: number(line.base), amount: money(line.amount ?? 0, currency), result: money(line.result, currency) });
  };
}

/** The lines, the caps and the total of an explanation (a stored order's or a preview's). */
export function CommissionLines({ lines, capped, total, rounding, currency, testId }: { lines: Line[]; capped: Cap[]; total: number; rounding?: number | undefined; currency: string; testId: string }) {
  const { t, money } = useMessages();
  const arithmetic = useLineArithmetic();
  const ruleOf = (line: Line) => (line.isDefault ? t('explain.defaultRule') : line.ruleName ? t('explain.namedRule', { n: line.rule + 1, name: line.ruleName }) : t('explain.rule', { n: line.rule + 1 }));
  const itemOf = (line: Line) => (line.remainder ? t('explain.remainder') : line.itemId ?? (line.items && line.items.length > 0 ? t('explain.items', { numbers: line.items.map((i) => `#${i + 1}`).join(', ') }) : t('explain.wholeOrder')));
  return (
    <div data-testid={testId}>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('explain.item')}</th>
            <th scope="col">{t('explain.ruleColumn')}</th>
            <th scope="col">{t('explain.arithmetic')}</th>
            <th scope="col">{t('explain.pays')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, i) => (
            <tr key={i} data-testid={`${testId}-line`}>
              <th scope="row" class="wrap">
                {itemOf(line)}
              </th>
              <td>{ruleOf(line)}</td>
              <td>{arithmetic(line, currency)}</td>
              <td>
                {money(line.commission, currency)}
                {line.capped && ` (${t('explain.cappedLine')})`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {capped.map((cap) => (
        <p key={cap.rule} class="hint" data-testid={`${testId}-cap`}>
          {t('explain.cap', { n: cap.rule + 1, uncapped: money(cap.uncapped, currency), cap: money(cap.cap, currency) })}
        </p>
      ))}
      {rounding ? (
        <p class="hint" data-testid={`${testId}-rounding`}>
          {t(rounding > 0 ? 'explain.rounding' : 'explain.roundingDown', { amount: money(Math.abs(rounding), currency) })}
        </p>
      ) : null}
      <p>
        <strong data-testid={`${testId}-total`}>{t('explain.total', { total: money(total, currency) })}</strong>
      </p>
    </div>
  );
}

/** A stored order's explanation: its facts, its lines and what changed after it was reported. */
export function CommissionExplanation({ explanation: e }: { explanation: OrderCommission }) {
  const { t, money, dateTime } = useMessages();
  const changeBy = (by: string) => (by === 'brand' ? t('explain.byBrand') : by === 'network' ? t('explain.byNetwork') : by === 'operator' ? t('explain.byOperator') : by);
  return (
    <section aria-labelledby="explanation-title" data-testid="explanation">
      <h2 id="explanation-title">{t('explain.title')}</h2>
      <dl class="facts explained">
        <dt>{t('explain.attribution')}</dt>
        <dd>{e.attribution === 'coupon' ? t('explain.byCoupon') : e.attribution === 'claim' ? t('explain.byClaim') : t('explain.byClick')}</dd>
        {e.click?.clickedAt && (
          <>
            <dt>{t('explain.clickedAt')}</dt>
            <dd>{dateTime(e.click.clickedAt)}</dd>
          </>
        )}
        {e.click?.linkCode && (
          <>
            <dt>{t('conversion.link')}</dt>
            <dd class="wrap">{e.click.linkCode}</dd>
          </>
        )}
        {(e.click?.channelKind ?? e.click?.channelId) && (
          <>
            <dt>{t('links.channel')}</dt>
            <dd class="wrap">{[e.click.channelKind, e.click.channelId].filter(Boolean).join(' · ')}</dd>
          </>
        )}
        {e.click?.country && (
          <>
            <dt>{t('explain.country')}</dt>
            <dd>{e.click.country}</dd>
          </>
        )}
        {e.click?.clickId && (
          <>
            <dt>{t('explain.clickId')}</dt>
            <dd class="wrap">
              <code>{e.click.clickId}</code>
            </dd>
          </>
        )}
        {e.coupon && (
          <>
            <dt>{t('conversion.coupon')}</dt>
            <dd>
              <code>{e.coupon}</code>
            </dd>
          </>
        )}
        <dt>{t('explain.version')}</dt>
        <dd data-testid="explanation-version">{e.rulesVersion === 0 ? t('explain.noRules') : t('explain.versionN', { n: e.rulesVersion })}</dd>
        <dt>{t('orders.value')}</dt>
        <dd>{money(e.value, e.currency)}</dd>
      </dl>
      <CommissionLines lines={e.lines} capped={e.capped} total={e.total} rounding={e.rounding} currency={e.currency} testId="explanation-lines" />
      {e.commissionReason && (
        <p role="status" data-testid="explanation-canceled">
          {t('explain.canceled', { reason: e.commissionReason, commission: money(e.commission, e.currency) })}
        </p>
      )}
      <h3>{t('explain.changes')}</h3>
      {e.changes.length === 0 ? (
        <p>{t('explain.noChanges')}</p>
      ) : (
        <table data-testid="explanation-changes">
          <thead>
            <tr>
              <th scope="col">{t('orders.date')}</th>
              <th scope="col">{t('conversion.change')}</th>
              <th scope="col">{t('conversion.by')}</th>
            </tr>
          </thead>
          <tbody>
            {e.changes.map((change, i) => (
              <tr key={i}>
                <td>{dateTime(change.at)}</td>
                <td>
                  {t('conversion.changed', {
                    field: change.field === 'value' ? t('orders.value') : t('orders.commission'),
                    from: change.from === undefined ? '—' : money(change.from, e.currency),
                    to: money(change.to, e.currency),
                  })}
                </td>
                <td>{changeBy(change.by)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
