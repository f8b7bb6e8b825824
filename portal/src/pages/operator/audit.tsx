import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { useChangeWords } from '../../components/change-words.js';
import { useAuditSentence } from '../../components/audit-sentence.js';
import type { components } from '../../../../packages/client/index.js';

type Entry = components['schemas']['AuditEntry'];
const PAGE_SIZE = 50;
type Search = { affiliateId?: string; brandId?: string; actorId?: string; action?: string; from?: string; to?: string };
const FIELDS = ['affiliateId', 'brandId', 'actorId', 'action', 'from', 'to'] as const;
/** The kinds of action searched by (a prefix ends with a dot), each with its words. */
const ACTIONS = ['', 'application.', 'affiliate.', 'brand.', 'approval.', 'conversion.', 'order.', 'claim.', 'statement.', 'payout.', 'payout_run.', 'adjustment.', 'member.viewed_as', 'user.'] as const;

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
            {field === 'action' ? (
              <select id="audit-action" name="action">
                {ACTIONS.map((action) => (
                  <option key={action} value={action}>
                    {t(`operator.audit.kind.${action.replace(/\.$/, '') || 'all'}` as MessageKey)}
                  </option>
                ))}
              </select>
            ) : (
              <input id={`audit-${field}`} name={field} type={field === 'from' || field === 'to' ? 'date' : 'text'} />
            )}
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

/** Entries as rows: when, and what happened as a sentence with its changes field by field; the raw entry behind a toggle. */
export function AuditTable({ entries, showAddress = false }: { entries: Entry[]; showAddress?: boolean }) {
  const { t, dateTime } = useMessages();
  const sentence = useAuditSentence();
  const words = useChangeWords();
  return (
    <table class="audit">
      <thead>
        <tr>
          <th scope="col">{t('operator.audit.at')}</th>
          <th scope="col">{t('operator.audit.what')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-testid={`audit-${e.action}-${e.subject.id}`}>
            <td>{dateTime(e.at)}</td>
            <td class="change">
              <p class="sentence">{sentence(e)}</p>
              {showAddress && (e.brandId || e.affiliateId) && (
                <p class="hint named">
                  {e.brandId && <Link href={`/operator/brands/${encodeURIComponent(e.brandId)}`}>{e.names?.brand ?? e.brandId}</Link>}
                  {e.brandId && e.affiliateId && ' · '}
                  {e.affiliateId && <Link href={`/operator/affiliates/${encodeURIComponent(e.affiliateId)}`}>{e.names?.affiliate ?? e.affiliateId}</Link>}
                </p>
              )}
              <Changes entry={e} words={words} />
              {e.reason && <span class="note">{t('operator.audit.reason', { reason: e.reason })}</span>}
              {showAddress && e.address && <span class="hint note">{t('operator.audit.address', { address: e.address })}</span>}
              <details>
                <summary>{t('operator.audit.details')}</summary>
                <pre>{JSON.stringify(e, null, 2)}</pre>
              </details>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The fields an entry changed (or set), each as "label: before → after", in words; fields no page names stay in the raw entry. */
function Changes({ entry, words }: { entry: Entry; words: ReturnType<typeof useChangeWords> }) {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const currency = typeof after['currency'] === 'string' ? after['currency'] : typeof before['currency'] === 'string' ? before['currency'] : undefined;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((field) => words.label(field) && JSON.stringify(before[field]) !== JSON.stringify(after[field]));
  if (fields.length === 0) return null;
  return (
    <ul class="changes">
      {fields.map((field) => (
        <li key={field}>
          {words.label(field)}: {field in before ? `${words.value(field, before[field], { currency })} → ` : ''}
          {words.value(field, after[field], { currency })}
        </li>
      ))}
    </ul>
  );
}
