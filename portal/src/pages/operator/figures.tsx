import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { DailyChart } from '../../components/daily-chart.js';
import { fieldText } from '../../forms.js';
import type { components } from '../../../../packages/client/index.js';

type NetworkFigures = components['schemas']['NetworkFigures'];
type Figures = NetworkFigures['totals'];
type Interval = NetworkFigures['interval'];
type Grouping = NetworkFigures['groupBy'];
type Query = { from?: string; to?: string; interval?: Interval; groupBy?: Grouping };

const percent = (bp: number) => `${(bp / 100).toFixed(1)} %`;
const sum = (figures: Figures, key: 'orders' | 'declined' | 'held') => figures.currencies.reduce((n, c) => n + c[key], 0);
/** A share of all the orders (a count, never money: orders of every currency add up). */
const shareOf = (figures: Figures, key: 'declined' | 'held') => {
  const orders = sum(figures, 'orders');
  return orders === 0 ? '–' : percent(Math.round((sum(figures, key) * 10_000) / orders));
};

/** The network's figures over a range: totals per currency, the periods, and the top brands or affiliates; CSV. */
export function OperatorFigures() {
  const { t, date } = useMessages();
  const [query, setQuery] = useState<Query>({});
  const figures = useQuery({
    queryKey: ['operator-figures', query],
    queryFn: async () => ok(await api.GET('/operator/figures', { params: { query } })).data,
    placeholderData: (previous) => previous,
  });
  const csv = `/operator/figures.csv?${new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString()}`;
  const day = (d: string) => date(`${d}T00:00:00Z`);
  return (
    <>
      <h1>{t('operator.figures.title')}</h1>
      <p class="hint">{t('operator.figures.hint')}</p>
      <form
        class="inline filters"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const from = fieldText(form, 'from');
          const to = fieldText(form, 'to');
          setQuery({ ...(from && { from }), ...(to && { to }), interval: fieldText(form, 'interval') as Interval, groupBy: fieldText(form, 'groupBy') as Grouping });
        }}
      >
        <div class="field">
          <label for="figures-from">{t('operator.audit.from')}</label>
          <input id="figures-from" name="from" type="date" />
        </div>
        <div class="field">
          <label for="figures-to">{t('operator.audit.to')}</label>
          <input id="figures-to" name="to" type="date" />
        </div>
        <div class="field">
          <label for="figures-interval">{t('operator.figures.interval')}</label>
          <select id="figures-interval" name="interval">
            <option value="day">{t('operator.figures.interval.day')}</option>
            <option value="month">{t('operator.figures.interval.month')}</option>
          </select>
        </div>
        <div class="field">
          <label for="figures-group">{t('operator.figures.groupBy')}</label>
          <select id="figures-group" name="groupBy">
            <option value="none">{t('operator.figures.groupBy.none')}</option>
            <option value="brand">{t('operator.figures.groupBy.brand')}</option>
            <option value="affiliate">{t('operator.figures.groupBy.affiliate')}</option>
          </select>
        </div>
        <button type="submit">{t('operator.members.show')}</button>
        <a class="button secondary" href={csv} download>
          {t('operator.figures.csv')}
        </a>
      </form>
      <QueryState query={figures}>
        {(f) => (
          <>
            <h2>{t('operator.members.figures', { from: day(f.from), to: day(f.to) })}</h2>
            <TotalsTable totals={f.totals} />
            <DailyChart days={f.periods.map((p) => Date.parse(`${p.from}T00:00:00Z`) / 1000)} values={f.periods.map((p) => p.clicks)} label={t('operator.figures.chart')} />
            <h2>{t(f.interval === 'day' ? 'operator.figures.perDay' : 'operator.figures.perMonth')}</h2>
            <FiguresTable
              rows={f.periods
                .filter((p) => p.clicks + p.uncountedClicks > 0 || p.currencies.length > 0)
                .map((p) => ({ key: p.period, name: f.interval === 'day' ? day(p.period) : p.period, figures: p }))}
              first={t('operator.figures.period')}
              empty={t('operator.figures.nothing')}
            />
            {f.groups && (
              <>
                <h2>{t(f.groupBy === 'brand' ? 'operator.figures.topBrands' : 'operator.figures.topAffiliates', { shown: f.groups.length, count: f.groupCount ?? f.groups.length })}</h2>
                <FiguresTable
                  rows={f.groups.map((g) => ({
                    key: g.id,
                    name: <Link href={`/operator/${f.groupBy === 'brand' ? 'brands' : 'affiliates'}/${encodeURIComponent(g.id)}`}>{g.name}</Link>,
                    figures: g,
                  }))}
                  first={t(f.groupBy === 'brand' ? 'operator.figures.groupBy.brand' : 'operator.figures.groupBy.affiliate')}
                  empty={t('operator.figures.nothing')}
                />
              </>
            )}
          </>
        )}
      </QueryState>
    </>
  );
}

/** The whole range: clicks, then a row per currency with its rates. */
function TotalsTable({ totals }: { totals: Figures }) {
  const { t, money, number } = useMessages();
  return (
    <>
      <dl class="facts">
        <dt>{t('operator.members.clicks')}</dt>
        <dd data-testid="figures-clicks">{number(totals.clicks)}</dd>
        <dt>{t('operator.members.uncounted')}</dt>
        <dd>{number(totals.uncountedClicks)}</dd>
      </dl>
      {totals.currencies.length === 0 ? (
        <p>{t('operator.figures.noOrders')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('operator.members.currency')}</th>
              <th scope="col">{t('operator.members.orders')}</th>
              <th scope="col">{t('operator.members.sales')}</th>
              <th scope="col">{t('operator.members.commission')}</th>
              <th scope="col">{t('operator.figures.fee')}</th>
              <th scope="col">{t('operator.members.declineRate')}</th>
              <th scope="col">{t('operator.figures.held')}</th>
            </tr>
          </thead>
          <tbody>
            {totals.currencies.map((c) => (
              <tr key={c.currency} data-testid={`figures-total-${c.currency}`}>
                <th scope="row">{c.currency}</th>
                <td>{number(c.orders)}</td>
                <td>{money(c.sales, c.currency)}</td>
                <td>{money(c.commission, c.currency)}</td>
                <td>{money(c.fee, c.currency)}</td>
                <td>
                  {percent(c.declineRateBp)} ({number(c.declined)})
                </td>
                <td>
                  {percent(c.holdRateBp)} ({number(c.held)})
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** Periods, brands or affiliates as rows; money a line per currency in its cell, rates over all the orders. */
function FiguresTable({ rows, first, empty }: { rows: Array<{ key: string; name: ComponentChildren; figures: Figures }>; first: string; empty: string }) {
  const { t, money, number } = useMessages();
  if (rows.length === 0) return <p>{empty}</p>;
  const amounts = (figures: Figures, key: 'sales' | 'commission' | 'fee') =>
    figures.currencies.length === 0
      ? '–'
      : figures.currencies.map((c, i) => (
          <span key={c.currency}>
            {i > 0 && <br />}
            {money(c[key], c.currency)}
          </span>
        ));
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">{first}</th>
          <th scope="col">{t('operator.members.clicks')}</th>
          <th scope="col">{t('operator.members.uncounted')}</th>
          <th scope="col">{t('operator.members.orders')}</th>
          <th scope="col">{t('operator.members.sales')}</th>
          <th scope="col">{t('operator.members.commission')}</th>
          <th scope="col">{t('operator.figures.fee')}</th>
          <th scope="col">{t('operator.members.declineRate')}</th>
          <th scope="col">{t('operator.figures.held')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, name, figures }) => (
          <tr key={key} data-testid={`figures-row-${key}`}>
            <th scope="row">{name}</th>
            <td>{number(figures.clicks)}</td>
            <td>{number(figures.uncountedClicks)}</td>
            <td>{number(sum(figures, 'orders'))}</td>
            <td>{amounts(figures, 'sales')}</td>
            <td>{amounts(figures, 'commission')}</td>
            <td>{amounts(figures, 'fee')}</td>
            <td>{shareOf(figures, 'declined')}</td>
            <td>{shareOf(figures, 'held')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
