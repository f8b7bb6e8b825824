import { useRef, useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok, ApiFailure } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import type { paths, Postback, PostbackDelivery } from '../../../../packages/client/index.js';

type PostbackBody = paths['/affiliate/postbacks/{id}']['put']['requestBody']['content']['application/json'];
type PostbackEvent = PostbackBody['events'][number];
type TestResult = paths['/affiliate/postbacks/{id}/test']['post']['responses'][200]['content']['application/json']['data'];

/** Every event, in words (the compiler wants each one named). */
const EVENTS: Record<PostbackEvent, MessageKey> = {
  'conversion.created': 'postbacks.event.conversion.created',
  'conversion.approved': 'postbacks.event.conversion.approved',
  'conversion.canceled': 'postbacks.event.conversion.canceled',
  'commission.paid': 'postbacks.event.commission.paid',
};
/** The macros the service fills in, each with what it holds. */
const MACROS: Array<[string, MessageKey, Record<string, number>?]> = [
  ['click_id', 'postbacks.macro.click_id'],
  ...[1, 2, 3, 4, 5].map((n): [string, MessageKey, Record<string, number>] => [`sub${n}`, 'postbacks.macro.sub', { n }]),
  ['order_id', 'postbacks.macro.order_id'],
  ['brand_id', 'postbacks.macro.brand_id'],
  ['commission', 'postbacks.macro.commission'],
  ['commission_cents', 'postbacks.macro.commission_cents'],
  ['currency', 'postbacks.macro.currency'],
  ['status', 'postbacks.macro.status'],
  ['event', 'postbacks.macro.event'],
  ['timestamp', 'postbacks.macro.timestamp'],
];
const ID_PATTERN = '[A-Za-z0-9][A-Za-z0-9_\\-]{0,63}';
const OUTCOME: Record<PostbackDelivery['status'], { key: MessageKey; badge: string }> = {
  delivered: { key: 'postbacks.delivered', badge: 'approved' },
  pending: { key: 'postbacks.waiting', badge: 'pending' },
  failed: { key: 'postbacks.failed', badge: 'canceled' },
};

/** A brand's name, read once per brand (another page may have read it already); its id while it loads or if it is no longer shown. */
function BrandName({ id }: { id: string }) {
  const brand = useQuery({ queryKey: ['brand', id], queryFn: async () => ok(await api.GET('/affiliate/brands/{id}', { params: { path: { id } } })).data, retry: false });
  return brand.data ? <>{brand.data.name}</> : <code>{id}</code>;
}

/** The affiliate's trackers' postback addresses: add and change them, send a test, read what was sent. */
export function Postbacks() {
  const { t, refusal } = useMessages();
  const queries = useQueryClient();
  const [editing, setEditing] = useState<Postback | 'new'>('new');
  const [open, setOpen] = useState<string>();
  const [tested, setTested] = useState<{ name: string; result?: TestResult; error?: Error }>();
  const postbacks = useQuery({ queryKey: ['postbacks'], queryFn: async () => ok(await api.GET('/affiliate/postbacks')).data });
  const refresh = (id?: string) => {
    void queries.invalidateQueries({ queryKey: ['postbacks'] });
    if (id) void queries.invalidateQueries({ queryKey: ['postback-deliveries', id] });
  };
  const remove = useMutation({
    mutationFn: async (id: string) => ok(await api.DELETE('/affiliate/postbacks/{id}', { params: { path: { id } } })),
    onSuccess: (_data, id) => {
      if (editing !== 'new' && editing.id === id) setEditing('new');
      refresh();
    },
  });
  const test = useMutation({
    mutationFn: async (id: string) => ok(await api.POST('/affiliate/postbacks/{id}/test', { params: { path: { id } } })).data,
    onMutate: (id) => setTested({ name: id }),
    onSuccess: (result, id) => {
      setTested({ name: id, result });
      refresh(id);
    },
    onError: (error, id) => setTested({ name: id, error }),
  });
  return (
    <>
      <h1>{t('postbacks.title')}</h1>
      <p class="hint">{t('postbacks.hint')}</p>
      <PostbackForm key={editing === 'new' ? 'new' : editing.id} editing={editing === 'new' ? undefined : editing} onDone={() => setEditing('new')} onSaved={refresh} />
      <h2>{t('postbacks.list')}</h2>
      {remove.isError && (
        <p role="alert" class="error">
          {refusal(remove.error)}
        </p>
      )}
      {tested && <TestOutcome {...tested} />}
      <QueryState query={postbacks}>
        {(list) =>
          list.length === 0 ? (
            <p>{t('postbacks.none')}</p>
          ) : (
            <table class="postbacks">
              <thead>
                <tr>
                  <th scope="col">{t('postbacks.name')}</th>
                  <th scope="col">{t('postbacks.url')}</th>
                  <th scope="col">{t('postbacks.events')}</th>
                  <th scope="col">{t('postbacks.brands')}</th>
                  <th scope="col">{t('postbacks.state')}</th>
                  <th scope="col">
                    <span class="visually-hidden">{t('team.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((postback) => (
                  <tr key={postback.id} data-testid={`postback-${postback.id}`}>
                    <th scope="row">{postback.id}</th>
                    <td>
                      <code>{postback.url}</code>
                    </td>
                    <td>{postback.events.map((e) => t(EVENTS[e])).join(' · ')}</td>
                    <td>
                      {postback.brandIds
                        ? postback.brandIds.map((id, i) => (
                            <span key={id}>
                              {i > 0 && ', '}
                              <BrandName id={id} />
                            </span>
                          ))
                        : t('postbacks.everyBrand')}
                    </td>
                    <td>
                      <span class={`badge ${postback.active ? 'approved' : ''}`}>{t(postback.active ? 'postbacks.sending' : 'postbacks.paused')}</span>
                    </td>
                    <td>
                      <div class="row-actions">
                        <button type="button" aria-label={t('postbacks.testNamed', { name: postback.id })} disabled={test.isPending} onClick={() => test.mutate(postback.id)}>
                          {t('postbacks.test')}
                        </button>
                        <button type="button" class="secondary" aria-label={t('postbacks.editNamed', { name: postback.id })} onClick={() => setEditing(postback)}>
                          {t('postbacks.edit')}
                        </button>
                        <button
                          type="button"
                          class="secondary"
                          aria-expanded={open === postback.id}
                          aria-label={t('postbacks.deliveriesNamed', { name: postback.id })}
                          onClick={() => setOpen(open === postback.id ? undefined : postback.id)}
                        >
                          {t('postbacks.deliveries')}
                        </button>
                        <ConfirmButton class="danger" aria-label={t('postbacks.deleteNamed', { name: postback.id })} question={t('postbacks.confirmDelete', { name: postback.id })} onConfirm={() => remove.mutate(postback.id)}>
                          {t('postbacks.delete')}
                        </ConfirmButton>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
      {open && postbacks.data?.some((p) => p.id === open) && <Deliveries id={open} />}
    </>
  );
}

/** A new postback, or changes to one: its address with the macros to click into it, its events, its brands, whether it is active. */
function PostbackForm({ editing, onDone, onSaved }: { editing: Postback | undefined; onDone: () => void; onSaved: (id: string) => void }) {
  const { t, refusal } = useMessages();
  const urlField = useRef<HTMLTextAreaElement>(null);
  const [name, setName] = useState(editing?.id ?? '');
  const [url, setUrl] = useState(editing?.url ?? '');
  const [events, setEvents] = useState<PostbackEvent[]>(editing?.events ?? ['conversion.created', 'conversion.approved']);
  const [everyBrand, setEveryBrand] = useState(!editing?.brandIds);
  const [brandIds, setBrandIds] = useState<string[]>(editing?.brandIds ?? []);
  const [active, setActive] = useState(editing?.active ?? true);
  const [problem, setProblem] = useState<MessageKey>();
  const save = useMutation({
    mutationFn: async (body: PostbackBody) => ok(await api.PUT('/affiliate/postbacks/{id}', { params: { path: { id: name } }, body })).data,
    onSuccess: (saved) => {
      onSaved(saved.id);
      if (editing) onDone();
      else {
        setName('');
        setUrl('');
      }
    },
    onError: (error) => {
      // A refusal of the address says where: the cursor is put there, the macro selected.
      const details = error instanceof ApiFailure ? error.body?.details : undefined;
      const field = urlField.current;
      if (field && details?.position !== undefined) {
        field.focus();
        field.setSelectionRange(details.position, details.position + (details.macro?.length ?? 1));
      }
    },
  });
  // A refusal of the address that says where is shown under the address; any other, under the button.
  const atAddress = save.error instanceof ApiFailure && save.error.body?.details?.position !== undefined;
  const insert = (macro: string) => {
    const field = urlField.current;
    const token = `{${macro}}`;
    const start = field?.selectionStart ?? url.length;
    const end = field?.selectionEnd ?? url.length;
    setUrl(url.slice(0, start) + token + url.slice(end));
    requestAnimationFrame(() => {
      field?.focus();
      field?.setSelectionRange(start + token.length, start + token.length);
    });
  };
  const submit = () => {
    if (events.length === 0) return setProblem('postbacks.eventsNeeded');
    if (!everyBrand && brandIds.length === 0) return setProblem('postbacks.noBrandYet');
    setProblem(undefined);
    save.mutate({ url: url.trim(), events, ...(!everyBrand && { brandIds }), active });
  };
  return (
    <form
      class="product-form postback-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2>{editing ? t('postbacks.editing', { name: editing.id }) : t('postbacks.new')}</h2>
      {!editing && (
        <label>
          {t('postbacks.name')}
          <input name="name" required maxLength={64} pattern={ID_PATTERN} value={name} onInput={(e) => setName(e.currentTarget.value)} aria-describedby="postback-name-hint" />
          <span id="postback-name-hint" class="hint">
            {t('postbacks.nameHint')}
          </span>
        </label>
      )}
      <label>
        {t('postbacks.url')}
        <textarea
          ref={urlField}
          name="url"
          required
          rows={3}
          maxLength={2048}
          placeholder="https://"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
          aria-invalid={atAddress}
          aria-describedby={atAddress ? 'postback-url-error postback-url-hint' : 'postback-url-hint'}
          spellcheck={false}
        />
        <span id="postback-url-hint" class="hint">
          {t('postbacks.urlHint')}
        </span>
      </label>
      {atAddress && save.error && (
        <p role="alert" class="error" id="postback-url-error">
          {refusal(save.error)}
        </p>
      )}
      <fieldset class="macros">
        <legend>{t('postbacks.macros')}</legend>
        <ul>
          {MACROS.map(([macro, meaning, values]) => (
            <li key={macro}>
              {/* Named by the macro itself, as it goes into the address; what it holds is its description. */}
              <button type="button" class="secondary" aria-describedby={`macro-${macro}`} onClick={() => insert(macro)}>
                <code>{`{${macro}}`}</code>
              </button>
              <span class="hint" id={`macro-${macro}`}>
                {t(meaning, values)}
              </span>
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset>
        <legend>{t('postbacks.events')}</legend>
        {(Object.keys(EVENTS) as PostbackEvent[]).map((event) => (
          <label key={event} class="check">
            <input type="checkbox" name="events" value={event} checked={events.includes(event)} onChange={(e) => setEvents(e.currentTarget.checked ? [...events, event] : events.filter((x) => x !== event))} />
            {t(EVENTS[event])}
          </label>
        ))}
      </fieldset>
      <BrandChoice everyBrand={everyBrand} onEveryBrand={setEveryBrand} brandIds={brandIds} onBrandIds={setBrandIds} />
      <label class="check">
        <input type="checkbox" name="active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        {t('postbacks.active')}
      </label>
      <div class="row-actions">
        <button type="submit" disabled={save.isPending}>
          {t('postbacks.save')}
        </button>
        {editing && (
          <button type="button" class="secondary" onClick={onDone}>
            {t('common.cancel')}
          </button>
        )}
      </div>
      {problem && (
        <p role="alert" class="error">
          {t(problem)}
        </p>
      )}
      {save.isError && !atAddress && (
        <p role="alert" class="error">
          {refusal(save.error, { fields: { url: t('postbacks.url'), id: t('postbacks.name') } })}
        </p>
      )}
      {save.isSuccess && <p role="status">{t('postbacks.saved', { name: save.data.id })}</p>}
    </form>
  );
}

/** Every brand, or only some: found by name and added one by one. */
function BrandChoice({ everyBrand, onEveryBrand, brandIds, onBrandIds }: { everyBrand: boolean; onEveryBrand: (every: boolean) => void; brandIds: string[]; onBrandIds: (ids: string[]) => void }) {
  const { t } = useMessages();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState('');
  const brands = useQuery({
    queryKey: ['brands', 'choice', search],
    queryFn: async () => ok(await api.GET('/affiliate/brands', { params: { query: { limit: 20, ...(search && { search }) } } })).data,
    placeholderData: (previous) => previous,
    enabled: !everyBrand,
  });
  return (
    <fieldset class="brands">
      <legend>{t('postbacks.brands')}</legend>
      <label class="check">
        <input type="radio" name="brand-scope" checked={everyBrand} onChange={() => onEveryBrand(true)} />
        {t('postbacks.allBrands')}
      </label>
      <label class="check">
        <input type="radio" name="brand-scope" checked={!everyBrand} onChange={() => onEveryBrand(false)} />
        {t('postbacks.someBrands')}
      </label>
      {!everyBrand && (
        <>
          {brandIds.length > 0 && (
            <ul class="chosen-brands">
              {brandIds.map((id) => (
                <li key={id}>
                  <BrandName id={id} />{' '}
                  <button type="button" class="secondary" aria-label={t('postbacks.removeBrand', { name: id })} onClick={() => onBrandIds(brandIds.filter((b) => b !== id))}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div class="brand-picker">
            <label>
              {t('postbacks.findBrand')}
              <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
            </label>
            <div class="field">
              <label for="postback-brand">{t('postbacks.chooseBrand')}</label>
              <select id="postback-brand" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
                <option value="">{t('postbacks.chooseBrand')}</option>
                {(brands.data ?? [])
                  .filter((brand) => !brandIds.includes(brand.id))
                  .map((brand) => (
                    <option key={brand.id} value={brand.id}>
                      {brand.name}
                    </option>
                  ))}
              </select>
            </div>
            <button
              type="button"
              class="secondary"
              disabled={!chosen}
              onClick={() => {
                onBrandIds([...brandIds, chosen]);
                setChosen('');
              }}
            >
              {t('postbacks.addBrand')}
            </button>
          </div>
        </>
      )}
    </fieldset>
  );
}

/** Why a request reached no tracker, or what the tracker answered. */
function AnswerText({ delivery }: { delivery: PostbackDelivery }) {
  const { t } = useMessages();
  if (delivery.failure) return <>{t(`postbacks.failure.${delivery.failure}`)}</>;
  return <>{delivery.responseStatus !== undefined ? t('postbacks.status', { status: delivery.responseStatus }) : '—'}</>;
}

/** A test's outcome: what the tracker answered and said, or why it could not be reached. */
function TestOutcome({ name, result, error }: { name: string; result?: TestResult; error?: Error }) {
  const { t, refusal, number } = useMessages();
  if (error)
    return (
      <p role="alert" class="error">
        {refusal(error)}
      </p>
    );
  if (!result) return <p role="status">{t('postbacks.testing', { name })}</p>;
  const { delivery, answer } = result;
  const answered = delivery.responseStatus !== undefined && !delivery.failure;
  return (
    <div role="status" class={`notice ${delivery.status === 'delivered' ? 'done' : ''}`} data-testid="postback-test">
      <p>{t('postbacks.testOf', { name })}</p>
      {delivery.url && (
        <p>
          {t('postbacks.sentUrl')} <code>{delivery.url}</code>
        </p>
      )}
      <p>
        {answered
          ? t(delivery.status === 'delivered' ? 'postbacks.answeredOk' : 'postbacks.answered', { status: delivery.responseStatus ?? 0, ms: number(delivery.durationMs ?? 0) })
          : t(`postbacks.failure.${delivery.failure ?? 'unreachable'}`)}
      </p>
      {answer !== undefined && answer !== '' && (
        <>
          <p>{t('postbacks.answerText')}</p>
          <pre class="snippet">{answer}</pre>
        </>
      )}
    </div>
  );
}

/** What was sent to a postback, newest first: each event (and test), how its last try went, and the address requested. */
function Deliveries({ id }: { id: string }) {
  const { t, dateTime } = useMessages();
  const log = useQuery({
    queryKey: ['postback-deliveries', id],
    queryFn: async () => ok(await api.GET('/affiliate/postbacks/{id}/deliveries', { params: { path: { id }, query: { limit: 50 } } })).data,
    refetchInterval: 5000,
  });
  return (
    <section aria-labelledby="postback-deliveries-title">
      <h3 id="postback-deliveries-title">{t('postbacks.deliveriesNamed', { name: id })}</h3>
      <QueryState query={log}>
        {(deliveries) =>
          deliveries.length === 0 ? (
            <p>{t('postbacks.noDeliveries')}</p>
          ) : (
            <table data-testid="postback-deliveries">
              <thead>
                <tr>
                  <th scope="col">{t('postbacks.when')}</th>
                  <th scope="col">{t('postbacks.event')}</th>
                  <th scope="col">{t('postbacks.outcome')}</th>
                  <th scope="col">{t('postbacks.response')}</th>
                  <th scope="col">{t('postbacks.attempts')}</th>
                  <th scope="col">{t('postbacks.requested')}</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((delivery) => {
                  const outcome = OUTCOME[delivery.status];
                  const event = EVENTS[delivery.event as PostbackEvent];
                  return (
                    <tr key={delivery.id}>
                      <td>{dateTime(delivery.at)}</td>
                      <td>
                        {event ? t(event) : <code>{delivery.event}</code>}
                        {delivery.test && ` ${t('postbacks.isTest')}`}
                      </td>
                      <td>
                        <span class={`badge ${outcome.badge}`}>{t(outcome.key)}</span>
                        {delivery.nextAttemptAt && <span class="hint"> {t('postbacks.nextTry', { date: dateTime(delivery.nextAttemptAt) })}</span>}
                      </td>
                      <td>
                        <AnswerText delivery={delivery} />
                      </td>
                      <td>{delivery.attempts}</td>
                      <td>{delivery.url ? <code>{delivery.url}</code> : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )
        }
      </QueryState>
    </section>
  );
}
