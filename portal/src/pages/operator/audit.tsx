import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import type { components } from '../../../../packages/client/index.js';

type Entry = components['schemas']['AuditEntry'];
const PAGE_SIZE = 50;
type Search = { affiliateId?: string; brandId?: string; actorId?: string; action?: string; from?: string; to?: string };
const FIELDS = ['affiliateId', 'brandId', 'actorId', 'action', 'from', 'to'] as const;

/** The audit trail, searched by member, actor, action and time; exported as CSV with the same search. */
export function OperatorAudit() {
  const { t } = useMessages();
  const [search, setSearch] = useState<Search>({});
  const [page, setPage] = useState(1);
  const entries = useQuery({
    queryKey: ['operator-audit', search, page],
    queryFn: async () => ok(await api.GET('/operator/audit', { params: { query: { ...search, page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  const csv = `/operator/audit.csv?${new URLSearchParams(Object.entries(search).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString()}`;
  return (
    <>
      <h1>{t('operator.audit.title')}</h1>
      <p class="hint">{t('operator.audit.hint')}</p>
      <form
        class="inline filters"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          setSearch(Object.fromEntries(FIELDS.map((f) => [f, fieldText(form, f).trim()]).filter(([, v]) => v)) as Search);
          setPage(1);
        }}
      >
        {FIELDS.map((field) => (
          <div class="field" key={field}>
            <label for={`audit-${field}`}>{t(`operator.audit.${field}`)}</label>
            <input id={`audit-${field}`} name={field} type={field === 'from' || field === 'to' ? 'date' : 'text'} placeholder={field === 'action' ? 'payout.' : undefined} />
          </div>
        ))}
        <button type="submit">{t('operator.audit.search')}</button>
        <a class="button secondary" href={csv} download="audit.csv">
          {t('operator.audit.csv')}
        </a>
      </form>
      <QueryState query={entries}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('operator.audit.none')}</p>
          ) : (
            <>
              <AuditTable entries={data} showAddress />
              <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} />
            </>
          )
        }
      </QueryState>
    </>
  );
}

/** Entries as rows: when, who (and from where, for operators), what to what, before → after. */
export function AuditTable({ entries, showAddress = false }: { entries: Entry[]; showAddress?: boolean }) {
  const { t, dateTime } = useMessages();
  const change = (e: Entry) => [e.before && JSON.stringify(e.before), e.after && JSON.stringify(e.after)].filter(Boolean).join(' → ');
  return (
    <table class="audit">
      <thead>
        <tr>
          <th scope="col">{t('operator.audit.action')}</th>
          <th scope="col">{t('operator.audit.at')}</th>
          <th scope="col">{t('operator.audit.actor')}</th>
          <th scope="col">{t('operator.audit.subject')}</th>
          <th scope="col">{t('operator.audit.change')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-testid={`audit-${e.action}-${e.subject.id}`}>
            <th scope="row">{e.action}</th>
            <td>{dateTime(e.at)}</td>
            <td>
              {t(`operator.audit.actor.${e.actor.kind}`)}
              {e.actor.id && ` ${e.actor.id}`}
              {e.actor.actingAs && ` (${t('operator.audit.actingAs', { member: e.actor.actingAs })})`}
              {showAddress && e.address && <span class="hint note">{e.address}</span>}
            </td>
            <td>
              {e.subject.kind} {e.subject.id}
            </td>
            <td class="change">
              {change(e)}
              {e.reason && <span class="hint note">{e.reason}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
