import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useActionNotice } from '../../components/action-notice.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import type { components } from '../../../../packages/client/index.js';

type Application = components['schemas']['Application'];
type Decision = { ids: string[]; status: 'approved' | 'declined'; reason?: string };
type Outcome = { id: string; decided: boolean; code?: string };
const STATUSES = ['pending', 'unverified', 'approved', 'declined'] as const;

/** Affiliates' sign-ups and brands' applications: what each sent, approved or declined (with the reason the applicant reads), one or several at once. */
const PAGE_SIZE = 50;

export function OperatorApplications() {
  const { t, date, refusal } = useMessages();
  const queries = useQueryClient();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('pending');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [refusals, setRefusals] = useState<Outcome[]>([]);
  const { say, notice } = useActionNotice();
  const [page, setPage] = useState(1);
  const applications = useQuery({
    queryKey: ['operator-applications', status, page],
    queryFn: async () => ok(await api.GET('/operator/applications', { params: { query: { status, page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  const decide = useMutation({
    mutationFn: async ({ ids, ...decision }: Decision) => ok(await api.POST('/operator/applications/decisions', { body: { ids, ...decision } })).data,
    onSuccess: (outcomes, { status: decided }) => {
      setRefusals(outcomes.filter((o) => !o.decided));
      const count = outcomes.filter((o) => o.decided).length;
      say(count === 0 ? t('operator.applications.noneDecided') : decided === 'approved' ? t('operator.applications.approvedCount', { count }) : t('operator.applications.declinedCount', { count }));
      setChosen(new Set());
      void queries.invalidateQueries({ queryKey: ['operator-applications'] });
      void queries.invalidateQueries({ queryKey: ['operator-audit'] });
    },
  });
  /** An application named as the list names it (the page may have moved on: then its id). */
  const applicantOf = (id: string) => {
    const a = applications.data?.data.find((application) => application.id === id);
    return a ? (a.company ?? a.name) : id;
  };
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  return (
    <>
      <h1>{t('operator.applications.title')}</h1>
      <p class="hint">{t('operator.applications.hint')}</p>
      {decide.isError && (
        <p role="alert" class="error">
          {refusal(decide.error)}
        </p>
      )}
      {notice}
      {refusals.length > 0 && (
        <ul role="alert" class="error">
          {refusals.map((r) => (
            <li key={r.id}>{t('operator.applications.notDecided', { applicant: applicantOf(r.id), why: refusal({ code: r.code ?? '' }) })}</li>
          ))}
        </ul>
      )}
      <form class="inline" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="applications-status">{t('operator.applications.show')}</label>
          <select id="applications-status" value={status} onChange={(e) => {
              setStatus(e.currentTarget.value as (typeof STATUSES)[number]);
              setPage(1);
            }}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`operator.applications.status.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </form>
      {status === 'pending' && chosen.size > 0 && <Bulk count={chosen.size} busy={decide.isPending} onDecide={(d) => decide.mutate({ ids: [...chosen], ...d })} />}
      <QueryState query={applications}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('operator.applications.none')}</p>
          ) : (
            <>
            <table>
              <thead>
                <tr>
                  {status === 'pending' && <th scope="col">{t('operator.applications.choose')}</th>}
                  <th scope="col">{t('operator.applications.applicant')}</th>
                  <th scope="col">{t('operator.applications.kind')}</th>
                  <th scope="col">{t('operator.applications.sent')}</th>
                  <th scope="col">{t('operator.applications.received')}</th>
                  <th scope="col">{t('operator.applications.decision')}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((a) => (
                  <tr key={a.id} data-testid={`application-${a.email}`}>
                    {status === 'pending' && (
                      <td>
                        <input type="checkbox" checked={chosen.has(a.id)} onChange={() => toggle(a.id)} aria-label={t('operator.applications.chooseNamed', { name: a.name })} />
                      </td>
                    )}
                    <th scope="row">
                      {a.company ? `${a.company} (${a.name})` : a.name}
                      <span class="hint note">{a.email}</span>
                    </th>
                    <td>{t(`operator.applications.kind.${a.kind}`)}</td>
                    <td>
                      <Sent application={a} />
                    </td>
                    <td>{date(a.createdAt)}</td>
                    <td>{a.status === 'pending' ? <DecideOne application={a} busy={decide.isPending} onDecide={(d) => decide.mutate({ ids: [a.id], ...d })} /> : <Decided application={a} />}</td>
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

/** What the applicant sent, beside their name. */
function Sent({ application: a }: { application: Application }) {
  const { t } = useMessages();
  return (
    <span class="sent">
      <a href={a.website} rel="noopener noreferrer" target="_blank">
        {a.website}
      </a>
      {a.country && ` · ${a.country}`}
      {a.taxId && ` · ${a.taxId}`}
      {a.expectedMonthlyOrders !== undefined && ` · ${t('operator.applications.ordersPerMonth', { count: a.expectedMonthlyOrders })}`}
      {` · ${t('operator.applications.terms', { version: a.terms.version })}`}
    </span>
  );
}

function Decided({ application: a }: { application: Application }) {
  const { t, date } = useMessages();
  if (a.status === 'unverified') return <>{t('operator.applications.waitsForAddress')}</>;
  return (
    <>
      {t(`operator.applications.status.${a.status}`)}
      {a.decidedAt && ` ${date(a.decidedAt)}`}
      {a.declineReason && <span class="hint note">{a.declineReason}</span>}
    </>
  );
}

/** Approve, or decline with the reason the applicant reads. */
function DecideOne({ application: a, busy, onDecide }: { application: Application; busy: boolean; onDecide: (d: Omit<Decision, 'ids'>) => void }) {
  const { t } = useMessages();
  const [missing, setMissing] = useState(false);
  return (
    <div class="claim-answer">
      <button type="button" disabled={busy} onClick={() => onDecide({ status: 'approved' })} aria-label={t('operator.applications.approveNamed', { name: a.name })}>
        {t('operator.applications.approve')}
      </button>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const reason = fieldText(e.currentTarget, 'reason').trim();
          setMissing(!reason);
          if (reason) onDecide({ status: 'declined', reason });
        }}
      >
        <label>
          {t('operator.applications.reason')}
          <input name="reason" maxLength={1000} aria-invalid={missing} />
        </label>
        {missing && <span class="error">{t('operator.applications.reasonRequired')}</span>}
        <button type="submit" class="secondary" disabled={busy} aria-label={t('operator.applications.declineNamed', { name: a.name })}>
          {t('operator.applications.decline')}
        </button>
      </form>
    </div>
  );
}

/** The same decision on every application chosen. */
function Bulk({ count, busy, onDecide }: { count: number; busy: boolean; onDecide: (d: Omit<Decision, 'ids'>) => void }) {
  const { t } = useMessages();
  const [missing, setMissing] = useState(false);
  return (
    <form
      class="inline bulk"
      aria-label={t('operator.applications.bulk', { count })}
      onSubmit={(e) => {
        e.preventDefault();
        const reason = fieldText(e.currentTarget, 'reason').trim();
        setMissing(!reason);
        if (reason) onDecide({ status: 'declined', reason });
      }}
    >
      <strong>{t('operator.applications.bulk', { count })}</strong>
      <button type="button" disabled={busy} onClick={() => onDecide({ status: 'approved' })}>
        {t('operator.applications.approveChosen')}
      </button>
      <div class="field">
        <label for="bulk-reason">{t('operator.applications.reason')}</label>
        <input id="bulk-reason" name="reason" maxLength={1000} aria-invalid={missing} />
      </div>
      <button type="submit" class="secondary" disabled={busy}>
        {t('operator.applications.declineChosen')}
      </button>
    </form>
  );
}
