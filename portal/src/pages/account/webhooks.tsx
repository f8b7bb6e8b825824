import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { CopyButton } from '../../components/copy-button.js';
import { fieldText } from '../../forms.js';
import type { paths, WebhookEndpoint } from '../../../../packages/client/index.js';

type Side = 'affiliate' | 'brand';
type AffiliateEvent = paths['/affiliate/webhooks']['post']['requestBody']['content']['application/json']['events'][number];
type BrandEvent = paths['/advertiser/webhooks']['post']['requestBody']['content']['application/json']['events'][number];
/** The events each side can receive: every one the API sends (the compiler checks the lists are whole). */
const AFFILIATE_EVENTS: Record<AffiliateEvent, true> = {
  'order.created': true,
  'order.updated': true,
  'commission.approved': true,
  'commission.canceled': true,
  'commission.held': true,
  'commission.payable': true,
  'payout.created': true,
  'payout.sent': true,
  'payout.settled': true,
  'payout.failed': true,
  'link.deactivated': true,
  'claim.created': true,
  'claim.resolved': true,
  'program.terms_changed': true,
};
const BRAND_EVENTS: Record<BrandEvent, true> = {
  'conversion.created': true,
  'conversion.updated': true,
  'affiliate.approval.requested': true,
  'claim.created': true,
  'claim.resolved': true,
  'statement.issued': true,
  'statement.overdue': true,
  'statement.terms_changed': true,
};
const EVENTS = { affiliate: Object.keys(AFFILIATE_EVENTS) as AffiliateEvent[], brand: Object.keys(BRAND_EVENTS) as BrandEvent[] };
const OUTCOME: Record<string, { key: MessageKey; badge: string }> = {
  delivered: { key: 'webhooks.delivered', badge: 'approved' },
  retrying: { key: 'webhooks.retrying', badge: 'pending' },
  failed: { key: 'webhooks.failed', badge: 'canceled' },
  endpoint_disabled: { key: 'webhooks.switchedOff', badge: 'canceled' },
};

/**
 * The typed client's calls for one side: the paths differ (/affiliate/webhooks, /advertiser/webhooks),
 * the shapes do not.
 */
function webhooksApi(side: Side) {
  const id = (endpoint: string) => ({ params: { path: { id: endpoint } } });
  return side === 'affiliate'
    ? {
        list: async () => ok(await api.GET('/affiliate/webhooks')).data,
        create: async (body: { url: string; description: string; events: string[] }) => ok(await api.POST('/affiliate/webhooks', { body: { ...body, events: body.events as AffiliateEvent[] } })).data,
        update: async (endpoint: string, enabled: boolean) => ok(await api.PATCH('/affiliate/webhooks/{id}', { ...id(endpoint), body: { enabled } })),
        remove: async (endpoint: string) => ok(await api.DELETE('/affiliate/webhooks/{id}', id(endpoint))),
        rotate: async (endpoint: string) => ok(await api.POST('/affiliate/webhooks/{id}/rotate-secret', id(endpoint))).data,
        deliveries: async (endpoint: string) => ok(await api.GET('/affiliate/webhooks/{id}/deliveries', { params: { path: { id: endpoint }, query: { limit: 50 } } })).data,
        redeliver: async (endpoint: string, deliveryId: string) =>
          ok(await api.POST('/affiliate/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id: endpoint, deliveryId } } })),
      }
    : {
        list: async () => ok(await api.GET('/advertiser/webhooks')).data,
        create: async (body: { url: string; description: string; events: string[] }) => ok(await api.POST('/advertiser/webhooks', { body: { ...body, events: body.events as BrandEvent[] } })).data,
        update: async (endpoint: string, enabled: boolean) => ok(await api.PATCH('/advertiser/webhooks/{id}', { ...id(endpoint), body: { enabled } })),
        remove: async (endpoint: string) => ok(await api.DELETE('/advertiser/webhooks/{id}', id(endpoint))),
        rotate: async (endpoint: string) => ok(await api.POST('/advertiser/webhooks/{id}/rotate-secret', id(endpoint))).data,
        deliveries: async (endpoint: string) => ok(await api.GET('/advertiser/webhooks/{id}/deliveries', { params: { path: { id: endpoint }, query: { limit: 50 } } })).data,
        redeliver: async (endpoint: string, deliveryId: string) =>
          ok(await api.POST('/advertiser/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id: endpoint, deliveryId } } })),
      };
}

/** Signed webhooks: endpoints with the events they take, the secret shown once, deliveries and redelivery. */
export function Webhooks({ side }: { side: Side }) {
  const { t, dateTime, refusal } = useMessages();
  const queries = useQueryClient();
  const calls = webhooksApi(side);
  const [secret, setSecret] = useState<{ url: string; secret: string; previousUntil?: string }>();
  const [open, setOpen] = useState<string>();
  const endpoints = useQuery({ queryKey: ['webhooks', side], queryFn: calls.list });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['webhooks', side] });
  const create = useMutation({
    mutationFn: calls.create,
    onSuccess: (data) => {
      setSecret({ url: data.url, secret: data.secret });
      refresh();
    },
  });
  const toggle = useMutation({ mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => calls.update(id, enabled), onSuccess: refresh });
  const remove = useMutation({ mutationFn: calls.remove, onSuccess: refresh });
  const rotate = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => calls.rotate(endpoint.id),
    onSuccess: (data, endpoint) => setSecret({ url: endpoint.url, secret: data.secret, previousUntil: data.previousSecretExpiresAt }),
  });
  const failure = create.error ?? toggle.error ?? remove.error ?? rotate.error;
  return (
    <>
      <h1>{t('webhooks.title')}</h1>
      <p class="hint">{t('webhooks.hint')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const events = new FormData(form).getAll('events').filter((v): v is string => typeof v === 'string');
          create.mutate({ url: fieldText(form, 'url'), description: fieldText(form, 'description'), events }, { onSuccess: () => form.reset() });
        }}
      >
        <label>
          {t('webhooks.url')}
          <input name="url" type="url" required placeholder="https://" />
        </label>
        <label>
          {t('webhooks.description')}
          <input name="description" maxLength={200} />
        </label>
        <fieldset>
          <legend>{t('webhooks.events')}</legend>
          {EVENTS[side].map((event) => (
            <label key={event} class="check">
              <input type="checkbox" name="events" value={event} />
              <code>{event}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={create.isPending}>
          {t('webhooks.add')}
        </button>
      </form>
      {failure && <p role="alert" class="error">{refusal(failure)}</p>}
      {secret && (
        <div role="status" class="secret">
          <p>{t('webhooks.secretOnce', { url: secret.url })}</p>
          {secret.previousUntil && <p>{t('webhooks.previousUntil', { date: dateTime(secret.previousUntil) })}</p>}
          <code data-testid="webhook-secret">{secret.secret}</code> <CopyButton text={secret.secret} label={t('webhooks.secret')} />
        </div>
      )}
      <QueryState query={endpoints}>
        {(list) =>
          list.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('webhooks.url')}</th>
                  <th scope="col">{t('webhooks.events')}</th>
                  <th scope="col">{t('links.state')}</th>
                  <th scope="col"><span class="visually-hidden">{t('team.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {list.map((endpoint) => (
                  <EndpointRow
                    key={endpoint.id}
                    endpoint={endpoint}
                    open={open === endpoint.id}
                    onOpen={() => setOpen(open === endpoint.id ? undefined : endpoint.id)}
                    onToggle={() => toggle.mutate({ id: endpoint.id, enabled: !endpoint.enabled })}
                    onRotate={() => rotate.mutate(endpoint)}
                    onRemove={() => {
                      if (window.confirm(t('webhooks.confirmDelete', { url: endpoint.url }))) remove.mutate(endpoint.id);
                    }}
                    calls={calls}
                  />
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
    </>
  );
}

interface RowProps {
  endpoint: WebhookEndpoint;
  open: boolean;
  onOpen: () => void;
  onToggle: () => void;
  onRotate: () => void;
  onRemove: () => void;
  calls: ReturnType<typeof webhooksApi>;
}

function EndpointRow({ endpoint, open, onOpen, onToggle, onRotate, onRemove, calls }: RowProps) {
  const { t, dateTime } = useMessages();
  // The network's reason is in the API's words: the page says it in the reader's.
  const state = endpoint.disabledReason
    ? endpoint.failingSince
      ? t('webhooks.switchedOffSince', { date: dateTime(endpoint.failingSince) })
      : t('webhooks.switchedOffFailing')
    : t(endpoint.enabled ? 'webhooks.enabled' : 'webhooks.paused');
  return (
    <>
      <tr data-testid={`webhook-${endpoint.url}`}>
        <th scope="row">
          {endpoint.url}
          {endpoint.description && <span class="hint"> {endpoint.description}</span>}
        </th>
        <td>{endpoint.events.join(', ')}</td>
        <td>
          <span class={`badge ${endpoint.enabled ? 'approved' : 'canceled'}`}>{state}</span>
        </td>
        <td class="actions">
          <button type="button" class="secondary" aria-expanded={open} aria-label={t('webhooks.deliveriesOf', { url: endpoint.url })} onClick={onOpen}>
            {t('webhooks.deliveries')}
          </button>{' '}
          <button type="button" class="secondary" aria-label={t(endpoint.enabled ? 'webhooks.pauseNamed' : 'webhooks.resumeNamed', { url: endpoint.url })} onClick={onToggle}>
            {t(endpoint.enabled ? 'webhooks.pause' : 'webhooks.resume')}
          </button>{' '}
          <button type="button" class="secondary" aria-label={t('webhooks.rotateNamed', { url: endpoint.url })} onClick={onRotate}>
            {t('webhooks.rotate')}
          </button>{' '}
          <button type="button" class="danger" aria-label={t('webhooks.deleteNamed', { url: endpoint.url })} onClick={onRemove}>
            {t('webhooks.delete')}
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={4}>
            <Deliveries endpointId={endpoint.id} calls={calls} />
          </td>
        </tr>
      )}
    </>
  );
}

/** An endpoint's delivery log, newest first, each delivery sent again on request. */
function Deliveries({ endpointId, calls }: { endpointId: string; calls: ReturnType<typeof webhooksApi> }) {
  const { t, dateTime, number, refusal } = useMessages();
  const queries = useQueryClient();
  const log = useQuery({ queryKey: ['webhooks', 'deliveries', endpointId], queryFn: () => calls.deliveries(endpointId), refetchInterval: 5000 });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => calls.redeliver(endpointId, deliveryId),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['webhooks', 'deliveries', endpointId] }),
  });
  return (
    <QueryState query={log}>
      {(attempts) =>
        attempts.length === 0 ? (
          <p>{t('webhooks.noDeliveries')}</p>
        ) : (
          <>
            {redeliver.isSuccess && <p role="status">{t('webhooks.redeliverQueued')}</p>}
            {redeliver.isError && <p role="alert" class="error">{refusal(redeliver.error)}</p>}
            <table data-testid="deliveries">
              <caption class="visually-hidden">{t('webhooks.deliveries')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('orders.date')}</th>
                  <th scope="col">{t('webhooks.event')}</th>
                  <th scope="col">{t('webhooks.outcome')}</th>
                  <th scope="col">{t('webhooks.response')}</th>
                  <th scope="col"><span class="visually-hidden">{t('team.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {attempts.map((attempt) => {
                  const outcome = OUTCOME[attempt.outcome];
                  return (
                    <tr key={`${attempt.deliveryId}-${attempt.attempt}`}>
                      <td>{dateTime(attempt.at)}</td>
                      <td>
                        <code>{attempt.eventType}</code> {t('webhooks.attempt', { n: attempt.attempt })}
                      </td>
                      <td>
                        <span class={`badge ${outcome?.badge ?? ''}`}>{outcome ? t(outcome.key) : attempt.outcome}</span>
                      </td>
                      <td>
                        {attempt.responseStatus ?? '—'} · {number(attempt.durationMs)} ms
                        <AttemptWhy attempt={attempt} />
                      </td>
                      <td>
                        <button type="button" class="secondary" onClick={() => redeliver.mutate(attempt.deliveryId)}>
                          {t('webhooks.redeliver')}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </>
        )
      }
    </QueryState>
  );
}

/** Why an attempt failed, in the reader's language (the API's error text is a developer's). */
function AttemptWhy({ attempt }: { attempt: { failure?: 'refused' | 'timeout' | 'unreachable'; responseStatus?: number; outcome: string } }) {
  const { t } = useMessages();
  if (attempt.failure) return <span class="hint"> {t(`webhooks.failure.${attempt.failure}`)}</span>;
  const status = attempt.responseStatus;
  if (status !== undefined && (status < 200 || status > 299)) return <span class="hint"> {t('webhooks.notConfirmed')}</span>;
  return null;
}
