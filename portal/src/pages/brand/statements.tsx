import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { NetworkTermsText, percentText } from '../../components/network-terms.js';
import type { components } from '../../../../packages/client/index.js';

type Statement = components['schemas']['Statement'];

const PAGE_SIZE = 20;
const LINES_PAGE_SIZE = 50;

/** A statement's status: its words and the colour of its badge. */
export const STATEMENT_STATUSES: Record<Statement['status'], { key: MessageKey; badge: string }> = {
  open: { key: 'statements.open', badge: 'pending' },
  overdue: { key: 'statements.overdue', badge: 'canceled' },
  paid: { key: 'statements.paid', badge: 'paid' },
};

function StatusBadge({ status }: { status: Statement['status'] }) {
  const { t } = useMessages();
  return <span class={`badge ${STATEMENT_STATUSES[status].badge}`}>{t(STATEMENT_STATUSES[status].key)}</span>;
}

/** What the network bills the brand each month: one statement per month and currency. */
export function BrandStatements() {
  const { t, money, date, number, locale, month } = useMessages();
  const [page, setPage] = useState(1);
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const statements = useQuery({
    queryKey: ['statements', page],
    queryFn: async () => ok(await api.GET('/advertiser/statements', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  return (
    <>
      <h1>{t('statements.title')}</h1>
      <p class="hint">{t('statements.brandHint')}</p>
      <QueryState query={profile}>
        {(brand) => (
          <section class="terms" aria-labelledby="terms-title">
            <h2 id="terms-title">{t('terms.label')}</h2>
            <p data-testid="statements-network-terms">
              <NetworkTermsText terms={brand.networkTerms} currency={brand.currency} />
            </p>
            <p class="hint">{t('terms.setByNetwork')}</p>
            {page === 1 && statements.data?.data[0] && statements.data.data[0].feeBasisPoints !== brand.networkTerms.feeBasisPoints && (
              <p class="hint" data-testid="statements-terms-changed">
                {t('terms.latestDiffers', { percent: percentText(statements.data.data[0].feeBasisPoints, locale), month: month(statements.data.data[0].month) })}
              </p>
            )}
          </section>
        )}
      </QueryState>
      <QueryState query={statements}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('statements.none')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('statements.month')}</th>
                    <th scope="col">{t('statements.status')}</th>
                    <th scope="col">{t('statements.lines')}</th>
                    <th scope="col">{t('statements.total')}</th>
                    <th scope="col">{t('statements.left')}</th>
                    <th scope="col">{t('statements.dueAt')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((s) => (
                    <tr key={s.id} data-testid={`statement-${s.month}-${s.currency}`}>
                      <th scope="row">
                        <Link href={`/statements/${encodeURIComponent(s.id)}`} aria-label={t('statements.openNamed', { month: month(s.month), currency: s.currency })}>
                          {month(s.month)} · {s.currency}
                        </Link>
                      </th>
                      <td>
                        <StatusBadge status={s.status} />
                      </td>
                      <td>{number(s.lineCount)}</td>
                      <td>{money(s.total, s.currency)}</td>
                      <td>{money(s.total - s.paidAmount, s.currency)}</td>
                      <td>{date(s.dueAt)}</td>
                    </tr>
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

/** One statement: its amounts and due date, its lines page by page, and the same as CSV and PDF. */
export function StatementDetail({ id }: { id: string }) {
  const { t, money, date, number, month } = useMessages();
  const [page, setPage] = useState(1);
  const detail = useQuery({
    queryKey: ['statement', id, page],
    queryFn: async () => ok(await api.GET('/advertiser/statements/{id}', { params: { path: { id }, query: { page, limit: LINES_PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  const file = (extension: 'csv' | 'pdf') => `/advertiser/statements/${encodeURIComponent(id)}.${extension}`;
  return (
    <>
      <p>
        <Link href="/statements">{t('statements.back')}</Link>
      </p>
      <h1>{detail.data ? t('statements.titleOf', { month: month(detail.data.data.month), currency: detail.data.data.currency }) : t('statements.one')}</h1>
      <QueryState query={detail}>
        {({ data: s, meta }) => (
          <>
            <dl class="facts amounts">
              <dt>{t('statements.status')}</dt>
              <dd data-testid="statement-status">
                <StatusBadge status={s.status} />
              </dd>
              <dt>{t('statements.commission')}</dt>
              <dd>{money(s.commission, s.currency)}</dd>
              <dt>{t('statements.fee', { percent: number(s.feeBasisPoints / 100) })}</dt>
              <dd>{money(s.fee, s.currency)}</dd>
              <dt>{t('statements.total')}</dt>
              <dd data-testid="statement-total">{money(s.total, s.currency)}</dd>
              <dt>{t('statements.paidAmount')}</dt>
              <dd>{money(s.paidAmount, s.currency)}</dd>
              <dt>{t('statements.left')}</dt>
              <dd data-testid="statement-left">{money(s.total - s.paidAmount, s.currency)}</dd>
              <dt>{t('statements.issuedAt')}</dt>
              <dd>{date(s.issuedAt)}</dd>
              <dt>{t('statements.dueAt')}</dt>
              <dd>{date(s.dueAt)}</dd>
              {s.paidAt && (
                <>
                  <dt>{t('statements.paidAt')}</dt>
                  <dd>{date(s.paidAt)}</dd>
                </>
              )}
            </dl>
            <p class="downloads">
              <a class="button secondary" href={file('csv')} download={`statement-${s.month}-${s.currency}.csv`}>
                {t('statements.csv')}
              </a>
              <a class="button secondary" href={file('pdf')} download={`statement-${s.month}-${s.currency}.pdf`}>
                {t('statements.pdf')}
              </a>
            </p>
            <h2>{t('statements.linesTitle', { count: s.lineCount })}</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('statements.order')}</th>
                  <th scope="col">{t('conversions.affiliate')}</th>
                  <th scope="col">{t('orders.date')}</th>
                  <th scope="col">{t('conversion.lockAt')}</th>
                  <th scope="col">{t('orders.value')}</th>
                  <th scope="col">{t('orders.commission')}</th>
                  <th scope="col">{t('statements.lineFee')}</th>
                </tr>
              </thead>
              <tbody>
                {s.lines.map((line) => (
                  <tr key={line.orderId} data-testid={`statement-line-${line.orderId}`}>
                    <th scope="row">
                      <Link href={`/conversions/${encodeURIComponent(line.orderId)}`}>{line.orderId}</Link>
                    </th>
                    <td>{line.affiliateId}</td>
                    <td>{date(line.orderedAt)}</td>
                    <td>
                      {date(line.lockAt)}
                      {line.autoApproved && ` · ${t('conversion.autoApproved')}`}
                    </td>
                    <td>{money(line.value, s.currency)}</td>
                    <td>{money(line.commission, s.currency)}</td>
                    <td>{money(line.fee, s.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} label={t('statements.linesLabel')} />
          </>
        )}
      </QueryState>
    </>
  );
}
