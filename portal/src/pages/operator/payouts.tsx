import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages, type Messages } from '../../i18n/index.js';
import { useActionNotice } from '../../components/action-notice.js';
import { needsFactor, useFactorGate } from '../account/factor-confirm.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { centsOf } from '../../../../src/lib/money-text.js';
import type { paths } from '../../../../packages/client/index.js';

type Run = paths['/operator/payout-runs']['get']['responses'][200]['content']['application/json']['data'][number];
type RunLine = paths['/operator/payout-runs']['post']['responses'][200]['content']['application/json']['data']['lines'][number];
type Settled = paths['/operator/payout-runs/{id}/settlement']['post']['responses'][200]['content']['application/json']['data'][number];
const PAGE_SIZE = 20;

/** The code field money moves ask for: blank when this session passed its second factor within 10 minutes. */
function CodeField({ id }: { id: string }) {
  const { t } = useMessages();
  return (
    <div class="field">
      <label for={id}>{t('operator.payouts.code')}</label>
      <input id={id} name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6,8}" maxLength={8} />
    </div>
  );
}
const codeOf = (form: HTMLFormElement) => fieldText(form, 'code').trim() || undefined;

/** Payout runs: a dry run first, then the run; each run's file for the bank and the provider's results; adjustments. */
export function OperatorPayouts() {
  const { t } = useMessages();
  return (
    <>
      <h1>{t('operator.payouts.title')}</h1>
      <p class="hint">{t('operator.payouts.hint')}</p>
      <NewRun />
      <Runs />
      <Adjustments />
    </>
  );
}

/**
 * A dry run or a run. A run with no code while the session's second factor is not fresh asks for it
 * (and runs once confirmed) rather than answering as if it were a dry run; what happened stays said.
 */
function NewRun() {
  const messages = useMessages();
  const { t, money, refusal } = messages;
  const queries = useQueryClient();
  const gate = useFactorGate();
  const { say, notice } = useActionNotice();
  const run = useMutation({
    mutationFn: async (body: { dryRun?: boolean; affiliateId?: string; code?: string }) => ok(await api.POST('/operator/payout-runs', { body })).data,
    onSuccess: (result) => {
      if (result.runId) void queries.invalidateQueries({ queryKey: ['operator-runs'] });
      const paid = result.lines.filter((line) => line.payout).length;
      const waiting = result.lines.filter((line) => line.waits).length;
      if (result.dryRun) say(t('operator.payouts.dry', { count: result.lines.length - waiting }), t('operator.payouts.waiting', { count: waiting }));
      else if (result.runId) say(t('operator.payouts.made', { id: result.runId.slice(0, 8), count: paid }), t('operator.payouts.waiting', { count: waiting }));
      else say(t('operator.payouts.nothingPaid'), t('operator.payouts.waiting', { count: waiting }));
    },
  });
  const start = (body: { dryRun?: boolean; affiliateId?: string; code?: string }) =>
    run.mutate(body, { onError: (error) => void gate.caught(error, () => run.mutate({ ...body, code: undefined })) });
  const bodyOf = (form: HTMLFormElement) => {
    const affiliateId = fieldText(form, 'affiliateId').trim();
    return affiliateId ? { affiliateId } : {};
  };
  return (
    <section>
      <h2>{t('operator.payouts.new')}</h2>
      <form
        class="inline filters"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const code = codeOf(form);
          start({ ...bodyOf(form), ...(code && { code }) });
        }}
      >
        <div class="field">
          <label for="run-affiliate">{t('operator.payouts.affiliate')}</label>
          <input id="run-affiliate" name="affiliateId" maxLength={64} />
        </div>
        <button type="button" class="secondary" disabled={run.isPending} onClick={(e) => start({ ...bodyOf(e.currentTarget.form!), dryRun: true })}>
          {t('operator.payouts.dryRun')}
        </button>
        <CodeField id="run-code" />
        <button type="submit" disabled={run.isPending}>
          {t('operator.payouts.run')}
        </button>
      </form>
      {gate.panel}
      {run.isError && !needsFactor(run.error) && (
        <p role="alert" class="error">
          {refusal(run.error)}
        </p>
      )}
      {notice}
      {run.data && run.data.lines.length > 0 && (
        <table>
          <caption>{run.data.dryRun ? t('operator.payouts.dryCaption') : t('operator.payouts.runCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('operator.payouts.affiliate')}</th>
              <th scope="col">{t('operator.payouts.amount')}</th>
              <th scope="col">{t('operator.payouts.outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {run.data.lines.map((line) => (
              <tr key={`${line.affiliateId}-${line.currency}`}>
                <th scope="row">{line.affiliateId}</th>
                <td>{money(line.total, line.currency)}</td>
                <td>{line.waits ? t('operator.payouts.skipped', { reason: waitText(line, messages) }) : line.payout ? t('operator.payouts.paid', { method: line.payout.method ?? '' }) : t('operator.payouts.wouldPay')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Why a run does not pay an amount now, in words. */
function waitText(line: RunLine, { t, money, dateTime }: Messages): string {
  const waits = line.waits!;
  if (waits.reason === 'below_minimum') return t('operator.payouts.waits.below_minimum', { total: money(line.total, line.currency), minimum: money(waits.minimum ?? 0, line.currency) });
  if (waits.reason === 'payee_details_held') return t('operator.payouts.waits.payee_details_held', { until: dateTime(waits.until ?? '') });
  return t(`operator.payouts.waits.${waits.reason}`);
}

function Runs() {
  const { t } = useMessages();
  const [page, setPage] = useState(1);
  const runs = useQuery({
    queryKey: ['operator-runs', page],
    queryFn: async () => ok(await api.GET('/operator/payout-runs', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  return (
    <section>
      <h2>{t('operator.payouts.runs')}</h2>
      <QueryState query={runs}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('operator.payouts.noRuns')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('operator.payouts.run')}</th>
                    <th scope="col">{t('operator.payouts.totals')}</th>
                    <th scope="col">{t('operator.payouts.file')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((run) => (
                    <RunRow key={run.id} run={run} />
                  ))}
                </tbody>
              </table>
              <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} />
            </>
          )
        }
      </QueryState>
    </section>
  );
}

/** One run: its payouts per status, the bank's file (second factor again) and the provider's results uploaded. */
function RunRow({ run }: { run: Run }) {
  const { t, money, dateTime, refusal } = useMessages();
  const queries = useQueryClient();
  const gate = useFactorGate();
  const { say, notice } = useActionNotice();
  const refresh = () => {
    void queries.invalidateQueries({ queryKey: ['operator-runs'] });
    void queries.invalidateQueries({ queryKey: ['operator-audit'] });
  };
  const exportFile = useMutation({
    mutationFn: async (code: string | undefined) => {
      const blob = ok(await api.POST('/operator/payout-runs/{id}/export', { params: { path: { id: run.id } }, body: code ? { code } : {}, parseAs: 'blob' }));
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `payout-run-${run.id}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    },
    onSuccess: () => {
      refresh();
      say(t('operator.payouts.exported'));
    },
  });
  const exportNow = (code: string | undefined) => exportFile.mutate(code, { onError: (error) => void gate.caught(error, () => exportFile.mutate(undefined)) });
  const settle = useMutation({
    mutationFn: async (file: string) => ok(await api.POST('/operator/payout-runs/{id}/settlement', { params: { path: { id: run.id } }, body: { file } })).data,
    onSuccess: (done) => {
      refresh();
      const count = (result: Settled['result']) => done.filter((d) => d.result === result).length;
      say(t('operator.payouts.settledCounts', { settled: count('settled'), failed: count('failed'), left: done.length - count('settled') - count('failed') }));
    },
  });
  return (
    <tr data-testid={`run-${run.id}`}>
      <th scope="row">
        <span class="code">{run.id.slice(0, 8)}</span>
        <span class="hint note">{dateTime(run.createdAt)}</span>
      </th>
      <td>
        {run.totals.map((total) => (
          <span key={`${total.status}-${total.currency}`} class="note">
            {t(`operator.payouts.status.${total.status}`, { count: total.payouts })}: {money(total.total, total.currency)}
          </span>
        ))}
      </td>
      <td>
        <form
          class="claim-answer"
          aria-label={t('operator.payouts.exportRun', { id: run.id.slice(0, 8) })}
          onSubmit={(e) => {
            e.preventDefault();
            exportNow(codeOf(e.currentTarget));
          }}
        >
          <CodeField id={`code-${run.id}`} />
          <button type="submit" disabled={exportFile.isPending}>
            {t('operator.payouts.export')}
          </button>
          {exportFile.isError && !needsFactor(exportFile.error) && <span class="error">{refusal(exportFile.error)}</span>}
        </form>
        {gate.panel}
        <label>
          {t('operator.payouts.results')}
          <input
            type="file"
            accept=".csv,text/csv"
            disabled={settle.isPending}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) void file.text().then((text) => settle.mutate(text));
              e.currentTarget.value = '';
            }}
          />
        </label>
        {settle.isError && <span class="error">{refusal(settle.error)}</span>}
        {notice}
        {settle.data && (
          <ul>
            {settle.data.map((done) => (
              <li key={done.payoutId}>
                <span class="code">{done.payoutId.slice(0, 8)}</span> {t(`operator.payouts.settlement.${done.result}`)}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

/** Operators' adjustments: made with the reason the affiliate reads (second factor again), and the latest listed. */
function Adjustments() {
  const { t, money, date, locale, refusal } = useMessages();
  const queries = useQueryClient();
  const gate = useFactorGate();
  const { say, notice } = useActionNotice();
  const [invalid, setInvalid] = useState(false);
  const list = useQuery({ queryKey: ['operator-adjustments'], queryFn: async () => ok(await api.GET('/operator/adjustments', { params: { query: { limit: 20 } } })) });
  const adjust = useMutation({
    mutationFn: async (body: { affiliateId: string; amount: number; currency: string; reason: string; code?: string }) => ok(await api.POST('/operator/adjustments', { body })).data,
    onSuccess: (made) => {
      say(t('operator.adjustments.made', { amount: money(made.amount, made.currency), affiliate: made.affiliateId }));
      void queries.invalidateQueries({ queryKey: ['operator-adjustments'] });
      void queries.invalidateQueries({ queryKey: ['operator-audit'] });
    },
  });
  return (
    <section>
      <h2>{t('operator.adjustments.title')}</h2>
      <form
        class="inline filters"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const cents = centsOf(fieldText(form, 'amount'), locale);
          setInvalid(typeof cents !== 'number' || cents === 0);
          if (typeof cents !== 'number' || cents === 0) return;
          const code = codeOf(form);
          const body = {
            affiliateId: fieldText(form, 'affiliateId').trim(),
            amount: fieldText(form, 'direction') === 'reduce' ? -cents : cents,
            currency: fieldText(form, 'currency').trim().toUpperCase(),
            reason: fieldText(form, 'reason').trim(),
          };
          const done = { onSuccess: () => form.reset() };
          adjust.mutate(
            { ...body, ...(code && { code }) },
            { ...done, onError: (error) => void gate.caught(error, () => adjust.mutate(body, done)) },
          );
        }}
      >
        <div class="field">
          <label for="adjust-affiliate">{t('operator.payouts.affiliate')}</label>
          <input id="adjust-affiliate" name="affiliateId" required maxLength={64} />
        </div>
        <div class="field">
          <label for="adjust-direction">{t('operator.adjustments.direction')}</label>
          <select id="adjust-direction" name="direction">
            <option value="add">{t('operator.adjustments.add')}</option>
            <option value="reduce">{t('operator.adjustments.reduce')}</option>
          </select>
        </div>
        <div class="field">
          <label for="adjust-amount">{t('operator.payouts.amount')}</label>
          <input id="adjust-amount" name="amount" inputMode="decimal" required aria-invalid={invalid} />
          {invalid && <span class="error">{t('operator.statements.badAmount')}</span>}
        </div>
        <div class="field">
          <label for="adjust-currency">{t('operator.adjustments.currency')}</label>
          <input id="adjust-currency" name="currency" required defaultValue="BRL" pattern="[A-Za-z]{3}" maxLength={3} size={4} />
        </div>
        <div class="field">
          <label for="adjust-reason">{t('operator.adjustments.reason')}</label>
          <input id="adjust-reason" name="reason" required maxLength={500} />
        </div>
        <CodeField id="adjust-code" />
        <button type="submit" disabled={adjust.isPending}>
          {t('operator.adjustments.make')}
        </button>
      </form>
      {gate.panel}
      {adjust.isError && !needsFactor(adjust.error) && (
        <p role="alert" class="error">
          {refusal(adjust.error)}
        </p>
      )}
      {notice}
      <QueryState query={list}>
        {({ data }) =>
          data.length === 0 ? (
            <p>{t('operator.adjustments.none')}</p>
          ) : (
            <ul>
              {data.map((a) => (
                <li key={a.id}>
                  {date(a.createdAt)} · {a.affiliateId} · {money(a.amount, a.currency)} · {a.reason}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
