import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { useActionNotice } from '../../components/action-notice.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { centsOf } from '../../../../src/lib/money-text.js';
import type { components } from '../../../../packages/client/index.js';

type Statement = components['schemas']['Statement'] & { brandName: string };
type Status = 'unpaid' | 'overdue' | 'paid' | '';
const PAGE_SIZE = 50;

/** Brands' statements: a month's issued, the unpaid and overdue ones to chase, and payments recorded against them. */
export function OperatorStatements() {
  const { t, refusal, month: monthWords } = useMessages();
  const queries = useQueryClient();
  const [status, setStatus] = useState<Status>('unpaid');
  const [page, setPage] = useState(1);
  const statements = useQuery({
    queryKey: ['operator-statements', status, page],
    queryFn: async () => ok(await api.GET('/operator/statements', { params: { query: { page, limit: PAGE_SIZE, ...(status && { status }) } } })),
    placeholderData: (previous) => previous,
  });
  const { say, notice } = useActionNotice();
  const issue = useMutation({
    mutationFn: async (month: string) => ok(await api.POST('/operator/statements', { body: { month } })).data,
    onSuccess: (issued, issuedMonth) => {
      say(t('operator.statements.issued', { count: issued.length }) + (issued.length === 0 ? ` ${t('operator.statements.noneToIssue', { month: monthWords(issuedMonth) })}` : ` ${t('operator.statements.issuedNext')}`));
      void queries.invalidateQueries({ queryKey: ['operator-statements'] });
    },
  });
  const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  return (
    <>
      <h1>{t('operator.statements.title')}</h1>
      <p class="hint">{t('operator.statements.hint')}</p>
      <form
        class="inline filters"
        onSubmit={(e) => {
          e.preventDefault();
          issue.mutate(fieldText(e.currentTarget, 'month'));
        }}
      >
        <div class="field">
          <label for="issue-month">{t('operator.statements.month')}</label>
          <input id="issue-month" name="month" type="month" required defaultValue={lastMonth} />
        </div>
        <button type="submit" disabled={issue.isPending}>
          {t('operator.statements.issue')}
        </button>
      </form>
      {issue.isError && (
        <p role="alert" class="error">
          {refusal(issue.error)}
        </p>
      )}
      {notice}
      <div class="field">
        <label for="statements-status">{t('operator.statements.show')}</label>
        <select
          id="statements-status"
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value as Status);
            setPage(1);
          }}
        >
          <option value="unpaid">{t('operator.statements.status.unpaid')}</option>
          <option value="overdue">{t('operator.statements.status.overdue')}</option>
          <option value="paid">{t('operator.statements.status.paid')}</option>
          <option value="">{t('operator.statements.status.all')}</option>
        </select>
      </div>
      <QueryState query={statements}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('operator.statements.none')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('operator.statements.brand')}</th>
                    <th scope="col">{t('operator.statements.month')}</th>
                    <th scope="col">{t('operator.statements.total')}</th>
                    <th scope="col">{t('operator.statements.paid')}</th>
                    <th scope="col">{t('operator.statements.due')}</th>
                    <th scope="col">{t('operator.statements.payment')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((s) => (
                    <StatementRow key={s.id} statement={s} onPaid={say} />
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

/** A statement, and the payment an operator records for it (said on the page: a row paid in full leaves the list). */
function StatementRow({ statement: s, onPaid }: { statement: Statement; onPaid: (sentence: string) => void }) {
  const { t, money, date, locale, refusal, month } = useMessages();
  const queries = useQueryClient();
  const [invalid, setInvalid] = useState(false);
  const pay = useMutation({
    mutationFn: async (body: { amount: number; reference: string }) => ok(await api.POST('/operator/statements/{id}/payments', { params: { path: { id: s.id } }, body })).data,
    onSuccess: (paid, { amount }) => {
      const still = paid.total - paid.paidAmount;
      onPaid(
        t('operator.statements.paymentRecorded', { amount: money(amount, paid.currency), brand: s.brandName, month: month(s.month) }) +
          ' ' +
          (still > 0 ? t('operator.statements.stillToPay', { left: money(still, paid.currency) }) : t('operator.statements.paidInFull')),
      );
      void queries.invalidateQueries({ queryKey: ['operator-statements'] });
      void queries.invalidateQueries({ queryKey: ['operator-audit'] });
    },
  });
  const left = s.total - s.paidAmount;
  return (
    <tr data-testid={`statement-${s.brandName}-${s.month}-${s.currency}`}>
      <th scope="row">{s.brandName}</th>
      <td>{month(s.month)}</td>
      <td>{money(s.total, s.currency)}</td>
      <td>
        {money(s.paidAmount, s.currency)}
        <span class={`hint note${s.status === 'overdue' ? ' error' : ''}`}>{t(`operator.statements.status.${s.status}`)}</span>
      </td>
      <td>{date(s.dueAt)}</td>
      <td>
        {left > 0 ? (
          <form
            class="claim-answer"
            aria-label={t('operator.statements.payFor', { brand: s.brandName, month: month(s.month) })}
            onSubmit={(e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const amount = centsOf(fieldText(form, 'amount'), locale);
              setInvalid(typeof amount !== 'number' || amount <= 0);
              if (typeof amount === 'number' && amount > 0) pay.mutate({ amount, reference: fieldText(form, 'reference').trim() }, { onSuccess: () => form.reset() });
            }}
          >
            <label>
              {t('operator.statements.amount', { left: money(left, s.currency) })}
              <input name="amount" inputMode="decimal" required aria-invalid={invalid} />
            </label>
            <label>
              {t('operator.statements.reference')}
              <input name="reference" required maxLength={200} />
            </label>
            {invalid && <span class="error">{t('operator.statements.badAmount')}</span>}
            {pay.isError && <span class="error">{refusal(pay.error)}</span>}
            <button type="submit" disabled={pay.isPending}>
              {t('operator.statements.record')}
            </button>
          </form>
        ) : (
          s.paidAt && date(s.paidAt)
        )}
      </td>
    </tr>
  );
}
