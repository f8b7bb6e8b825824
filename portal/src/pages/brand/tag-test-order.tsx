// "Send a test order": the brand opens its shop through a test link and orders as a customer
// would; the page follows the test every two seconds and says what the tag saw — the visit, then
// the order with what it read, or why it was refused — in the person's words. A test order is
// never an order.
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { components } from '../../../../packages/client/index.js';

type TagTest = components['schemas']['TagTest'];
type TagReport = components['schemas']['TagReport'];

/** How long the page keeps asking: a test order is placed within minutes. */
const FOLLOW_MS = 60 * 60_000;

function OrderSeen({ report }: { report: TagReport }) {
  const { t, money, refusal, dateTime } = useMessages();
  if (report.outcome === 'refused') {
    return (
      <p class="notice" role="status" data-testid="test-order">
        {t('tag.testRefused', { orderId: report.orderId ?? '—', reason: refusal({ code: report.code ?? 'refused', ...(report.details && { details: report.details }) }) })}
      </p>
    );
  }
  return (
    <div class="notice done" role="status" data-testid="test-order">
      <p>
        <strong>{t('tag.testReceived')}</strong> {t('tag.testNotCounted')}
      </p>
      <dl class="facts">
        <dt>{t('orders.order')}</dt>
        <dd>{report.orderId}</dd>
        <dt>{t('tag.testValue')}</dt>
        <dd>{report.value !== undefined && report.currency ? money(report.value, report.currency) : report.value !== undefined ? t('tag.testCents', { value: report.value }) : '—'}</dd>
        <dt>{t('tag.testCoupon')}</dt>
        <dd>{report.coupon ?? t('tag.testNoCoupon')}</dd>
        <dt>{t('tag.testItems')}</dt>
        <dd>{report.items !== undefined ? t('tag.testItemCount', { count: report.items }) : t('tag.testNoItems')}</dd>
        <dt>{t('tag.at')}</dt>
        <dd>{dateTime(report.at)}</dd>
      </dl>
    </div>
  );
}

function TestProgress({ test }: { test: TagTest }) {
  const { t, refusal, dateTime } = useMessages();
  const latest = test.orders.at(-1);
  return (
    <ol class="steps" data-testid="test-steps">
      <li>
        <a class="button" href={test.url} target="_blank" rel="noopener">
          {t('tag.testOpen')}
        </a>{' '}
        {test.visit ? (
          <span role="status">{test.visit.onDomains ? t('tag.testVisited', { origin: test.visit.origin ?? '—', time: dateTime(test.visit.at) }) : t('tag.testVisitedElsewhere', { origin: test.visit.origin ?? '—' })}</span>
        ) : (
          <span class="muted">{t('tag.testWaitingVisit')}</span>
        )}
      </li>
      <li>
        {t('tag.testPlaceOrder')}
        {latest ? <OrderSeen report={latest} /> : <p class="muted">{t('tag.testWaitingOrder')}</p>}
        {test.otherRefusals.map((report, i) => (
          <p key={`${report.at}-${i}`} class="notice" data-testid="test-other-refusal">
            {t('tag.testOther', { orderId: report.orderId ?? '—', reason: refusal({ code: report.code ?? 'refused', ...(report.details && { details: report.details }) }) })}
          </p>
        ))}
      </li>
    </ol>
  );
}

export function TestOrder() {
  const { t, refusal } = useMessages();
  const [testId, setTestId] = useState<string>();
  const start = useMutation({
    mutationFn: async () => ok(await api.POST('/advertiser/tag/tests')).data,
    onSuccess: (made) => setTestId(made.id),
  });
  const test = useQuery({
    queryKey: ['brand', 'tag', 'test', testId],
    enabled: testId !== undefined,
    queryFn: async () => ok(await api.GET('/advertiser/tag/tests/{id}', { params: { path: { id: testId! } } })).data,
    // Every two seconds until an order arrived, for an hour at most.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data || data.orders.some((o) => o.outcome === 'accepted')) return data ? false : 2000;
      return Date.now() - Date.parse(data.createdAt) < FOLLOW_MS ? 2000 : false;
    },
  });
  const shown = test.data ?? start.data;
  return (
    <section aria-labelledby="test-title">
      <h2 id="test-title">{t('tag.test')}</h2>
      <p class="hint">{t('tag.testIntro')}</p>
      <button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
        {shown ? t('tag.testAgain') : t('tag.testStart')}
      </button>
      {start.error && (
        <p role="alert" class="error">
          {refusal(start.error)}
        </p>
      )}
      {shown && <TestProgress test={shown} />}
    </section>
  );
}
