import { useState } from 'preact/hooks';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok, ApiFailure } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { statusMessage } from '../../statuses.js';
import type { components, paths } from '../../../../packages/client/index.js';

type Reconciliation = components['schemas']['Reconciliation'];
type Line = components['schemas']['ReconciliationLine'];
type Kind = keyof Reconciliation['counts'];
type Mapping = NonNullable<paths['/advertiser/conversions/reconciliations']['post']['parameters']['query']>;

/** The kinds in the order the page shows them: what changes first. */
const KINDS: Kind[] = ['confirm', 'cancel', 'correct', 'leave', 'skipped', 'unknown', 'missing', 'invalid'];
const CHANGING: Kind[] = ['confirm', 'cancel', 'correct'];

const KIND_TITLES: Record<Kind, MessageKey> = {
  confirm: 'reconcile.kindConfirm',
  cancel: 'reconcile.kindCancel',
  correct: 'reconcile.kindCorrect',
  leave: 'reconcile.kindLeave',
  skipped: 'reconcile.kindSkipped',
  unknown: 'reconcile.kindUnknown',
  missing: 'reconcile.kindMissing',
  invalid: 'reconcile.kindInvalid',
};
const KIND_HINTS: Record<Kind, MessageKey> = {
  confirm: 'reconcile.hintConfirm',
  cancel: 'reconcile.hintCancel',
  correct: 'reconcile.hintCorrect',
  leave: 'reconcile.hintLeave',
  skipped: 'reconcile.hintSkipped',
  unknown: 'reconcile.hintUnknown',
  missing: 'reconcile.hintMissing',
  invalid: 'reconcile.hintInvalid',
};
const REASONS: Record<NonNullable<Line['reason']>, MessageKey> = {
  locked: 'reconcile.reasonLocked',
  held: 'reconcile.reasonHeld',
  decided: 'reconcile.reasonDecided',
  shop_pending: 'reconcile.reasonShopPending',
  refund_covers_value: 'reconcile.reasonRefundCoversValue',
  missing_order_id: 'reconcile.reasonMissingOrderId',
  unknown_status: 'reconcile.reasonUnknownStatus',
  invalid_amount: 'reconcile.reasonInvalidAmount',
  invalid_date: 'reconcile.reasonInvalidDate',
  other_currency: 'reconcile.reasonOtherCurrency',
  duplicate_order: 'reconcile.reasonDuplicateOrder',
  refund_exceeds_total: 'reconcile.reasonRefundExceedsTotal',
};
const VERDICTS: Record<NonNullable<Line['verdict']>, MessageKey> = {
  paid: 'reconcile.verdictPaid',
  canceled: 'reconcile.verdictCanceled',
  refunded: 'reconcile.verdictRefunded',
  partially_refunded: 'reconcile.verdictPartiallyRefunded',
  pending: 'reconcile.verdictPending',
};
const PLATFORMS: Record<Reconciliation['platform'], MessageKey> = { shopify: 'reconcile.platformShopify', nuvemshop: 'reconcile.platformNuvemshop', mapped: 'reconcile.platformMapped' };

/** The mapping's fields, each with its label; the first four are needed. */
const MAPPED: Array<[keyof Mapping, MessageKey, boolean]> = [
  ['orderIdColumn', 'reconcile.columnOrder', true],
  ['statusColumn', 'reconcile.columnStatus', true],
  ['totalColumn', 'reconcile.columnTotal', true],
  ['dateColumn', 'reconcile.columnDate', true],
  ['refundedColumn', 'reconcile.columnRefunded', false],
];

/** The columns a refusal of an unknown file names (the file's own headers), when it is that refusal. */
function columnsOfRefusal(error: unknown): string[] | undefined {
  if (!(error instanceof ApiFailure) || error.body?.code !== 'reconciliation_columns_unknown') return undefined;
  return (error.body.details)?.columns;
}

function Lines({ kind, lines, count, currency }: { kind: Kind; lines: Line[]; count: number; currency: string }) {
  const { t, money, date } = useMessages();
  const value = (cents: number | undefined) => (cents === undefined ? '' : money(cents, currency));
  return (
    <section aria-labelledby={`kind-${kind}`} data-testid={`kind-${kind}`}>
      <h2 id={`kind-${kind}`}>
        {t(KIND_TITLES[kind])} <span class="badge">{count}</span>
      </h2>
      <p class="hint">{t(KIND_HINTS[kind])}</p>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('orders.order')}</th>
            <th scope="col">{t('reconcile.line')}</th>
            <th scope="col">{t('orders.date')}</th>
            <th scope="col">{t('reconcile.inShop')}</th>
            <th scope="col">{t('orders.value')}</th>
            <th scope="col">{kind === 'invalid' || kind === 'skipped' || kind === 'leave' ? t('reconcile.why') : t('orders.status')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, i) => (
            <tr key={`${line.line ?? ''}-${line.orderId ?? i}`}>
              <th scope="row" class="wrap">
                {line.orderId && (kind === 'unknown' || kind === 'invalid' ? line.orderId : <Link href={`/conversions/${encodeURIComponent(line.orderId)}`}>{line.orderId}</Link>)}
              </th>
              <td>{line.line ?? ''}</td>
              <td>{line.createdAt ? date(line.createdAt) : ''}</td>
              <td>
                {line.verdict ? t(VERDICTS[line.verdict]) : ''}
                {line.verdict === 'partially_refunded' && line.refunded !== undefined ? ` (${value(line.refunded)})` : ''}
              </td>
              <td>
                {kind === 'correct' ? t('reconcile.valueChange', { from: value(line.value), to: value(line.newValue) }) : kind === 'unknown' ? value(line.total) : value(line.value)}
              </td>
              <td>{line.reason ? t(REASONS[line.reason]) : line.status ? t(statusMessage(line.status) ?? 'status.pending') : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {count > lines.length && <p class="hint">{t('reconcile.more', { count: count - lines.length })}</p>}
    </section>
  );
}

/** A brand checks its pending orders against its shop's own order export: upload, preview, apply. */
export function Reconciliation() {
  const { t, date, refusal } = useMessages();
  const [file, setFile] = useState<File | undefined>();
  const [mapping, setMapping] = useState<Mapping>({});
  const [shown, setShown] = useState<Reconciliation | undefined>();
  const check = useMutation({
    mutationFn: async ({ file, query }: { file: File; query: Mapping }) =>
      ok(
        await api.POST('/advertiser/conversions/reconciliations', {
          params: { query },
          body: file as never,
          bodySerializer: (body) => body as BodyInit,
          headers: { 'content-type': 'text/csv' },
        }),
      ).data,
    onSuccess: setShown,
  });
  const apply = useMutation({
    mutationFn: async (id: string) => ok(await api.POST('/advertiser/conversions/reconciliations/{id}/apply', { params: { path: { id } } })).data,
    onSuccess: setShown,
  });
  const columns = columnsOfRefusal(check.error);
  const changes = shown ? CHANGING.reduce((sum, kind) => sum + shown.counts[kind], 0) : 0;
  const start = () => {
    setShown(undefined);
    setFile(undefined);
    setMapping({});
    check.reset();
    apply.reset();
  };
  return (
    <>
      <p>
        <Link href="/conversions">{t('reconcile.back')}</Link>
      </p>
      <h1>{t('reconcile.title')}</h1>
      {!shown && (
        <>
          <p class="hint">{t('reconcile.intro')}</p>
          <form
            class="stacked"
            onSubmit={(e) => {
              e.preventDefault();
              if (file) check.mutate({ file, query: columns ? mapping : {} });
            }}
          >
            <label>
              {t('reconcile.file')}
              <input type="file" name="export" accept=".csv,text/csv" required onChange={(e) => setFile(e.currentTarget.files?.[0])} />
            </label>
            {columns && (
              <fieldset>
                <legend>{t('reconcile.mapping')}</legend>
                {MAPPED.map(([field, label, needed]) => (
                  <label key={field}>
                    {t(label)}
                    <select name={field} required={needed} value={mapping[field] ?? ''} onChange={(e) => setMapping({ ...mapping, [field]: e.currentTarget.value || undefined })}>
                      <option value="">{needed ? t('reconcile.chooseColumn') : t('reconcile.noColumn')}</option>
                      {columns.map((column) => (
                        <option key={column} value={column}>
                          {column}
                        </option>
                      ))}
                    </select>
                  </label>
                ))}
              </fieldset>
            )}
            {check.isError && (
              <p role="alert" class="error">
                {refusal(check.error)}
              </p>
            )}
            <button type="submit" disabled={check.isPending || !file}>
              {check.isPending ? t('reconcile.checking') : t('reconcile.check')}
            </button>
          </form>
        </>
      )}
      {shown && (
        <>
          <p data-testid="reconcile-summary">
            {t(PLATFORMS[shown.platform])} ·{' '}
            {shown.from && shown.to
              ? date(shown.from) === date(shown.to)
                ? t('reconcile.summaryOneDay', { rows: shown.rows, day: date(shown.from) })
                : t('reconcile.summary', { rows: shown.rows, from: date(shown.from), to: date(shown.to) })
              : t('reconcile.summaryNoDates', { rows: shown.rows })}
          </p>
          <div class="tiles">
            {KINDS.filter((kind) => kind !== 'invalid' || shown.counts.invalid > 0).map((kind) => (
              <div class="tile" key={kind}>
                <span>{t(KIND_TITLES[kind])}</span>
                <strong>{shown.counts[kind]}</strong>
              </div>
            ))}
          </div>
          {apply.isError && (
            <p role="alert" class="error">
              {refusal(apply.error)}
            </p>
          )}
          {shown.outcome ? (
            <div role="status" class="card" data-testid="reconcile-outcome">
              <p>{t('reconcile.applied', { confirmed: shown.outcome.confirmed, canceled: shown.outcome.canceled, corrected: shown.outcome.corrected })}</p>
              {shown.outcome.changedMeanwhile > 0 && <p class="hint">{t('reconcile.changedMeanwhile', { count: shown.outcome.changedMeanwhile })}</p>}
            </div>
          ) : changes > 0 ? (
            <ConfirmButton question={t('reconcile.applyConfirm', { count: changes })} onConfirm={() => apply.mutate(shown.id)} disabled={apply.isPending}>
              {t('reconcile.apply', { count: changes })}
            </ConfirmButton>
          ) : (
            <p class="hint">{t('reconcile.nothing')}</p>
          )}{' '}
          <button type="button" class="secondary" onClick={start}>
            {t('reconcile.again')}
          </button>
          {KINDS.filter((kind) => shown.counts[kind] > 0).map((kind) => (
            <Lines key={kind} kind={kind} lines={shown.lines[kind]} count={shown.counts[kind]} currency={shown.currency} />
          ))}
        </>
      )}
    </>
  );
}
