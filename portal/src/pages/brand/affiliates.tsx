import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';

const APPROVAL: Record<'approved' | 'pending' | 'declined' | 'none', { key: MessageKey; badge: string }> = {
  approved: { key: 'affiliates.approved', badge: 'approved' },
  pending: { key: 'affiliates.asking', badge: 'pending' },
  declined: { key: 'affiliates.declined', badge: 'canceled' },
  none: { key: 'affiliates.none', badge: '' },
};
const PAGE_SIZE = 25;

/** The affiliates working with the brand, with their results; approving those who ask, withdrawing approvals. */
export function Affiliates() {
  const { t, money, number, refusal } = useMessages();
  const queries = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [page, setPage] = useState(1);
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const affiliates = useQuery({
    queryKey: ['affiliates', asking, page],
    queryFn: async () => ok(await api.GET('/advertiser/affiliates', { params: { query: { page, limit: PAGE_SIZE, ...(asking && { status: 'pending' as const }) } } })),
    placeholderData: (previous) => previous,
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['affiliates'] });
  const approve = useMutation({
    mutationFn: async (id: string) => ok(await api.POST('/advertiser/affiliates/{id}/approval', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const withdraw = useMutation({
    mutationFn: async (id: string) => ok(await api.DELETE('/advertiser/affiliates/{id}/approval', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const failure = approve.error ?? withdraw.error;
  const currency = profile.data?.currency ?? 'BRL';
  return (
    <>
      <h1>{t('affiliates.title')}</h1>
      <p class="hint">{t(profile.data?.isPublic === false ? 'affiliates.privateHint' : 'affiliates.publicHint')}</p>
      <label class="check">
        <input
          type="checkbox"
          checked={asking}
          onChange={(e) => {
            setAsking(e.currentTarget.checked);
            setPage(1);
          }}
        />
        {t('affiliates.onlyAsking')}
      </label>
      {failure && <p role="alert" class="error">{refusal(failure)}</p>}
      <QueryState query={affiliates}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('conversions.affiliate')}</th>
                    <th scope="col">{t('affiliates.approval')}</th>
                    <th scope="col">{t('overview.clicks')}</th>
                    <th scope="col">{t('overview.orders')}</th>
                    <th scope="col">{t('affiliates.sales')}</th>
                    <th scope="col">{t('orders.commission')}</th>
                    <th scope="col"><span class="visually-hidden">{t('team.actions')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((affiliate) => {
                    const approval = APPROVAL[affiliate.approval];
                    return (
                      <tr key={affiliate.affiliateId} data-testid={`affiliate-${affiliate.affiliateId}`}>
                        <th scope="row">
                          {affiliate.name} <span class="hint">{affiliate.affiliateId}</span>
                        </th>
                        <td>{approval.badge ? <span class={`badge ${approval.badge}`}>{t(approval.key)}</span> : t(approval.key)}</td>
                        <td>{number(affiliate.clicks)}</td>
                        <td>{number(affiliate.orders)}</td>
                        <td>{money(affiliate.sales, currency)}</td>
                        <td>{money(affiliate.commission, currency)}</td>
                        <td class="actions">
                          {/* A public brand needs no approval: only one asking (or declined) can be approved. */}
                          {(affiliate.approval === 'pending' || affiliate.approval === 'declined' || (affiliate.approval === 'none' && profile.data?.isPublic === false)) && (
                            <button type="button" aria-label={t('affiliates.approveNamed', { name: affiliate.name })} onClick={() => approve.mutate(affiliate.affiliateId)}>
                              {t('conversions.approve')}
                            </button>
                          )}
                          {(affiliate.approval === 'approved' || affiliate.approval === 'pending') && (
                            <button
                              type="button"
                              class="danger"
                              aria-label={t(affiliate.approval === 'approved' ? 'affiliates.withdrawNamed' : 'affiliates.declineNamed', { name: affiliate.name })}
                              onClick={() => withdraw.mutate(affiliate.affiliateId)}
                            >
                              {t(affiliate.approval === 'approved' ? 'affiliates.withdraw' : 'conversions.decline')}
                            </button>
                          )}
                        </td>
                      </tr>
                    );
                  })}
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
