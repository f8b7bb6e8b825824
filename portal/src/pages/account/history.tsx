import { useState } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { AuditTable } from '../operator/audit.js';

const PAGE_SIZE = 50;

/** The audit trail's entries about the member's own account. */
export function AccountHistory({ side }: { side: 'affiliate' | 'brand' }) {
  const { t } = useMessages();
  const [page, setPage] = useState(1);
  const entries = useQuery({
    queryKey: ['account-history', side, page],
    queryFn: async () => ok(side === 'affiliate' ? await api.GET('/affiliate/audit', { params: { query: { page, limit: PAGE_SIZE } } }) : await api.GET('/advertiser/audit', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  return (
    <>
      <h1>{t('history.title')}</h1>
      <p class="hint">{t('history.hint')}</p>
      <QueryState query={entries}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('history.none')}</p>
          ) : (
            <>
              <AuditTable entries={data} />
              <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} />
            </>
          )
        }
      </QueryState>
    </>
  );
}
