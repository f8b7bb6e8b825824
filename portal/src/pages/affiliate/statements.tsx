import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { Link } from 'wouter-preact';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** The summary's lines, in the order the statement adds them up. */
const LINES: Array<['openingBalance' | 'approved' | 'adjustments' | 'paid' | 'returned', MessageKey, 1 | -1]> = [
  ['openingBalance', 'statement.openingBalance', 1],
  ['approved', 'statement.approved', 1],
  ['adjustments', 'statement.adjustments', 1],
  ['paid', 'statement.paid', -1],
  ['returned', 'statement.returned', 1],
];

/** The words of each movement's kind; one the portal does not know shows as the API names it. */
const KINDS: Partial<Record<string, MessageKey>> = {
  approval: 'statement.kind.approval',
  opening: 'statement.kind.opening',
  adjustment: 'statement.kind.adjustment',
  payout_sent: 'statement.kind.payout_sent',
  payout_failed: 'statement.kind.payout_failed',
};

/** The affiliate's monthly statement: what the network owed it over a month, per currency, and the same as CSV and PDF. */
export function Statements() {
  const { t, money, date } = useMessages();
  const [month, setMonth] = useState(thisMonth);
  const statement = useQuery({
    queryKey: ['affiliate-statement', month],
    queryFn: async () => ok(await api.GET('/affiliate/statements/{month}', { params: { path: { month } } })).data,
    enabled: /^\d{4}-\d{2}$/.test(month),
  });
  const file = (extension: 'csv' | 'pdf') => `/affiliate/statements/${month}.${extension}`;
  const kind = (k: string): string => (KINDS[k] ? t(KINDS[k]) : k);
  return (
    <>
      <h1>{t('statement.title')}</h1>
      <p class="hint">{t('statement.hint')}</p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('statement.month')}
          <input type="month" value={month} max={thisMonth()} required onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)} />
        </label>
      </form>
      <p class="downloads">
        <a class="button secondary" href={file('csv')} download={`statement-${month}.csv`}>
          {t('statements.csv')}
        </a>
        <a class="button secondary" href={file('pdf')} download={`statement-${month}.pdf`}>
          {t('statements.pdf')}
        </a>
      </p>
      <QueryState query={statement}>
        {(data) =>
          data.length === 0 ? (
            <p>{t('statement.none')}</p>
          ) : (
            <>
              {data.map((s) => (
                <section key={s.currency} class="card" data-testid={`statement-${s.currency}`} aria-labelledby={`statement-${s.currency}`}>
                  <h2 id={`statement-${s.currency}`}>{t('statement.in', { currency: s.currency })}</h2>
                  <dl class="facts amounts">
                    {LINES.map(([field, key, sign]) => (
                      <Fragment key={field}>
                        <dt>{t(key)}</dt>
                        <dd data-testid={`statement-${s.currency}-${field}`}>{money(sign * s[field], s.currency)}</dd>
                      </Fragment>
                    ))}
                    <dt>
                      <strong>{t('statement.closingBalance')}</strong>
                    </dt>
                    <dd data-testid={`statement-${s.currency}-closingBalance`}>
                      <strong>{money(s.closingBalance, s.currency)}</strong>
                    </dd>
                    <dt>{t('statement.payable')}</dt>
                    <dd>{money(s.payable, s.currency)}</dd>
                    <dt>{t('statement.awaitingBrandPayment')}</dt>
                    <dd>{money(s.awaitingBrandPayment, s.currency)}</dd>
                    <dt>{t('statement.payableBalance')}</dt>
                    <dd>{money(s.payableBalance, s.currency)}</dd>
                  </dl>
                  {s.movements.length > 0 && (
                    <details>
                      <summary>{t('statement.movements', { count: s.movements.length })}</summary>
                      <table>
                        <thead>
                          <tr>
                            <th scope="col">{t('orders.date')}</th>
                            <th scope="col">{t('statement.movement')}</th>
                            <th scope="col">{t('statement.amount')}</th>
                          </tr>
                        </thead>
                        <tbody>
                          {s.movements.map((m, i) => (
                            <tr key={i}>
                              <td>{date(m.at)}</td>
                              <td>
                                {kind(m.kind)}
                                {m.orderId && m.orderNumber && (
                                  <span class="hint note">
                                    <Link href={`/orders/${encodeURIComponent(m.orderId)}`}>{t('statement.orderOf', { order: m.orderNumber, brand: m.brandName ?? '' })}</Link>
                                  </span>
                                )}
                              </td>
                              <td>{money(m.amount, s.currency)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </details>
                  )}
                </section>
              ))}
            </>
          )
        }
      </QueryState>
    </>
  );
}
