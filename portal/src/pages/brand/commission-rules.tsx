import { useEffect, useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok, ApiFailure } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { CommissionLines } from '../../components/commission-explanation.js';
import { useOutcomeText } from '../../components/commission-rule-text.js';
import { useTermsLoweringText } from '../../components/terms-lowering.js';
import { centsOf } from '../../../../src/lib/money-text.js';
import type { components, paths } from '../../../../packages/client/index.js';

type Rule = components['schemas']['CommissionRule'];
type PreviewBody = NonNullable<paths['/advertiser/commission-rules/preview']['post']['requestBody']>['content']['application/json'];

/** A rule as the page edits it: text as typed, money in the brand's currency units. */
interface Draft {
  name: string;
  productIds: string;
  categories: string;
  customer: '' | 'new' | 'returning';
  channelKinds: string;
  affiliateGroups: string;
  coupon: 'none' | 'any' | 'codes';
  codes: string;
  min: string;
  max: string;
  transfer: 'cps' | 'cpa';
  value: string;
  per: 'order' | 'item';
  cap: string;
}

interface ExampleItem {
  id: string;
  price: string;
  quantity: string;
}

const EMPTY: Draft = { name: '', productIds: '', categories: '', customer: '', channelKinds: '', affiliateGroups: '', coupon: 'none', codes: '', min: '', max: '', transfer: 'cps', value: '', per: 'order', cap: '' };

const listOf = (text: string) => [...new Set(text.split(',').map((part) => part.trim()).filter(Boolean))];

/** A percentage typed in the locale ("7,5" or "7.5") as a number, undefined when it is none. */
function percentOf(text: string, locale: string): number | undefined {
  const cents = centsOf(text, locale);
  return typeof cents === 'number' ? cents / 100 : undefined;
}

/** The rules editor: the brand's rules in the order they are tried, its default rule last, and a preview of an example order. */
export function CommissionRulesEditor() {
  const { t, has, money, number, locale, dateTime, refusal } = useMessages();
  const loweringText = useTermsLoweringText();
  const outcomeOf = useOutcomeText();
  const queries = useQueryClient();
  const profile = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const saved = useQuery({ queryKey: ['commission-rules'], queryFn: async () => ok(await api.GET('/advertiser/commission-rules')).data });
  const currency = profile.data?.currency ?? 'USD';
  const [drafts, setDrafts] = useState<Draft[] | undefined>(undefined);
  /** Problems by rule index (-1: the list as a whole), from the page's own checks or the service's answer. */
  const [problems, setProblems] = useState<Map<number, string>>(new Map());
  /** What the last save did: in force at once, or waiting for the notice (with when and why). */
  const [savedAs, setSavedAs] = useState<{ version: number; effectiveAt?: string; lowering?: NonNullable<components['schemas']['CommissionRules']['upcoming']>['lowering'] } | undefined>(undefined);

  // Money in the brand's units as typed: cents to "49.90" in the locale's marks.
  const unitsOf = (cents: number) => money(cents, currency).replace(/[^\d.,]/g, '');
  const draftOf = (rule: Rule): Draft => {
    const c = rule.conditions ?? {};
    return {
      name: rule.name ?? '',
      productIds: (c.productIds ?? []).join(', '),
      categories: (c.categories ?? []).join(', '),
      customer: c.customer ?? '',
      channelKinds: (c.channelKinds ?? []).join(', '),
      affiliateGroups: (c.affiliateGroups ?? []).join(', '),
      coupon: c.coupon ? (c.coupon.codes ? 'codes' : 'any') : 'none',
      codes: (c.coupon?.codes ?? []).join(', '),
      min: c.orderValue?.min === undefined ? '' : unitsOf(c.orderValue.min),
      max: c.orderValue?.max === undefined ? '' : unitsOf(c.orderValue.max),
      transfer: rule.transfer,
      value: rule.transfer === 'cps' ? number(rule.value) : unitsOf(rule.value),
      per: rule.per ?? 'order',
      cap: rule.cap === undefined ? '' : unitsOf(rule.cap),
    };
  };
  useEffect(() => {
    // The latest saved rules are the ones to edit: a change still waiting for its notice, if any.
    if (saved.data && profile.data && drafts === undefined) setDrafts((saved.data.upcoming ?? saved.data).rules.map(draftOf));
  }, [saved.data, profile.data]);

  /** The drafts as the API takes them, or the first problem of each rule the page can see itself. */
  function rulesOf(list: Draft[]): { rules: Rule[] } | { problems: Map<number, string> } {
    const found = new Map<number, string>();
    const rules = list.map((d, i): Rule => {
      const money = (text: string, field: MessageKey) => {
        const cents = centsOf(text, locale);
        if (cents === undefined) found.set(i, found.get(i) ?? t('rules.badAmount', { field: t(field) }));
        return typeof cents === 'number' ? cents : undefined;
      };
      const min = money(d.min, 'rules.min');
      const max = money(d.max, 'rules.max');
      const cap = money(d.cap, 'rules.cap');
      let value: number;
      if (d.transfer === 'cps') {
        const percent = percentOf(d.value, locale);
        if (percent === undefined) found.set(i, found.get(i) ?? t('rules.badPercent'));
        value = percent ?? 0;
      } else {
        const cents = centsOf(d.value, locale);
        if (typeof cents !== 'number') found.set(i, found.get(i) ?? t('rules.badAmount', { field: t('rules.amount') }));
        value = typeof cents === 'number' ? cents : 0;
      }
      const codes = listOf(d.codes);
      if (d.coupon === 'codes' && codes.length === 0) found.set(i, found.get(i) ?? t('rules.noCodes'));
      const conditions = {
        ...(listOf(d.productIds).length > 0 && { productIds: listOf(d.productIds) }),
        ...(listOf(d.categories).length > 0 && { categories: listOf(d.categories) }),
        ...(d.customer && { customer: d.customer }),
        ...(listOf(d.channelKinds).length > 0 && { channelKinds: listOf(d.channelKinds) }),
        ...(listOf(d.affiliateGroups).length > 0 && { affiliateGroups: listOf(d.affiliateGroups) }),
        ...(d.coupon === 'any' && { coupon: {} }),
        ...(d.coupon === 'codes' && { coupon: { codes } }),
        ...((min !== undefined || max !== undefined) && { orderValue: { ...(min !== undefined && { min }), ...(max !== undefined && { max }) } }),
      };
      return {
        ...(d.name.trim() && { name: d.name.trim() }),
        ...(Object.keys(conditions).length > 0 && { conditions }),
        transfer: d.transfer,
        value,
        ...(d.transfer === 'cpa' && { per: d.per }),
        ...(cap !== undefined && { cap }),
      };
    });
    return found.size > 0 ? { problems: found } : { rules };
  }

  /** The service names the rule it refuses (its number and what it breaks): the sentence goes beside that rule, in the page's language. */
  function problemsOf(error: Error): Map<number, string> {
    const details = error instanceof ApiFailure && error.body?.code === 'invalid_commission_rules' ? error.body.details : undefined;
    const key = `rules.problem.${details?.rule ?? ''}`;
    if (details?.position === undefined || !has(key)) return new Map([[-1, refusal(error)]]);
    return new Map([[details.position - 1, t(key, { other: details.values?.[0] ?? '', name: details.values?.[0] ?? '' })]]);
  }

  const save = useMutation({
    mutationFn: async (rules: Rule[]) => ok(await api.PUT('/advertiser/commission-rules', { body: { rules } })).data,
    onSuccess: (data) => {
      setSavedAs(data.upcoming ? { version: data.upcoming.version, effectiveAt: data.upcoming.effectiveAt, lowering: data.upcoming.lowering } : { version: data.version });
      setDrafts((data.upcoming ?? data).rules.map(draftOf));
      void queries.invalidateQueries({ queryKey: ['commission-rules'] });
    },
    onError: (error) => setProblems(problemsOf(error)),
  });

  const update = (i: number, change: Partial<Draft>) => {
    setDrafts(drafts!.map((d, j) => (j === i ? { ...d, ...change } : d)));
    setSavedAs(undefined);
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...drafts!];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    setDrafts(next);
    setProblems(new Map());
    setSavedAs(undefined);
  };

  return (
    <>
      <h1>{t('rules.title')}</h1>
      <p class="hint">{t('rules.hint')}</p>
      <QueryState query={saved}>
        {(view) => {
          // The rules edited are the latest saved, so the default shown beside them is theirs too.
          const defaultRule = (view.upcoming ?? view).default;
          return drafts === undefined ? (
            <p role="status">{t('common.loading')}</p>
          ) : (
            <>
              <p class="hint" data-testid="rules-version">
                {view.version === 0 ? t('rules.neverSaved') : t('rules.versionN', { n: view.version })}
              </p>
              {view.upcoming && (
                <p class="notice" role="note" data-testid="rules-upcoming">
                  {t('rules.upcoming', { n: view.upcoming.version, date: dateTime(view.upcoming.effectiveAt), why: loweringText(view.upcoming.lowering, currency), current: view.version })}
                </p>
              )}
              <form
                class="stacked"
                aria-label={t('rules.title')}
                onSubmit={(e) => {
                  e.preventDefault();
                  const result = rulesOf(drafts);
                  if ('problems' in result) {
                    setProblems(result.problems);
                    return;
                  }
                  setProblems(new Map());
                  save.mutate(result.rules);
                }}
              >
                <ol class="rules">
                  {drafts.map((d, i) => (
                    <li key={i} data-testid="rule" aria-label={t('rules.ruleN', { n: i + 1 })}>
                      <RuleFields draft={d} index={i} currency={currency} onChange={(change) => update(i, change)} />
                      {problems.get(i) && (
                        <p role="alert" class="error" data-testid="rule-problem">
                          {problems.get(i)}
                        </p>
                      )}
                      <div class="toolbar">
                        <button type="button" class="secondary" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('rules.upN', { n: i + 1 })}>
                          {t('rules.up')}
                        </button>
                        <button type="button" class="secondary" disabled={i === drafts.length - 1} onClick={() => move(i, 1)} aria-label={t('rules.downN', { n: i + 1 })}>
                          {t('rules.down')}
                        </button>
                        <button
                          type="button"
                          class="danger"
                          aria-label={t('rules.removeN', { n: i + 1 })}
                          onClick={() => {
                            setDrafts(drafts.filter((_, j) => j !== i));
                            setProblems(new Map());
                            setSavedAs(undefined);
                          }}
                        >
                          {t('rules.remove')}
                        </button>
                      </div>
                    </li>
                  ))}
                  <li data-testid="rule-default">
                    <strong>{t('explain.defaultRule')}</strong>
                    <p>
                      {drafts.length === 0 ? t('rules.whenAlways') : t('rules.whenNoOther')}:{' '}
                      {outcomeOf(defaultRule, currency)}
                    </p>
                    <p class="hint">
                      {t('rules.defaultHint')} <Link href="/profile">{t('nav.profile')}</Link>
                    </p>
                  </li>
                </ol>
                <div class="toolbar">
                  <button
                    type="button"
                    class="secondary"
                    disabled={drafts.length >= 50}
                    onClick={() => {
                      setDrafts([...drafts, { ...EMPTY }]);
                      setSavedAs(undefined);
                    }}
                  >
                    {t('rules.add')}
                  </button>
                  <button type="submit" disabled={save.isPending}>
                    {t('rules.save')}
                  </button>
                </div>
                {problems.get(-1) && (
                  <p role="alert" class="error">
                    {problems.get(-1)}
                  </p>
                )}
                {savedAs !== undefined && (
                  <p role="status" data-testid="rules-saved">
                    {savedAs.effectiveAt === undefined
                      ? t('rules.saved', { n: savedAs.version })
                      : t('rules.savedWaiting', { n: savedAs.version, date: dateTime(savedAs.effectiveAt), why: loweringText(savedAs.lowering, currency) })}
                  </p>
                )}
              </form>
              <Preview currency={currency} rulesOf={() => rulesOf(drafts)} problemsOf={problemsOf} onProblems={setProblems} />
            </>
          );
        }}
      </QueryState>
    </>
  );
}

/** One rule's fields: its name, its conditions, what it pays. */
function RuleFields({ draft: d, index: i, currency, onChange }: { draft: Draft; index: number; currency: string; onChange: (change: Partial<Draft>) => void }) {
  const { t } = useMessages();
  const id = (field: string) => `rule-${i}-${field}`;
  const text = (field: keyof Draft, label: MessageKey, hint?: MessageKey) => (
    <label>
      {t(label)}
      <input value={d[field]} onInput={(e) => onChange({ [field]: e.currentTarget.value })} />
      {hint && <span class="hint">{t(hint)}</span>}
    </label>
  );
  return (
    <>
      <label>
        {t('rules.name')}
        <input value={d.name} maxLength={100} onInput={(e) => onChange({ name: e.currentTarget.value })} />
      </label>
      <fieldset>
        <legend>{t('rules.conditions')}</legend>
        {text('productIds', 'rules.products', 'rules.listHint')}
        {text('categories', 'rules.categories', 'rules.listHint')}
        <div class="field">
          <label for={id('customer')}>{t('rules.customer')}</label>
          <select id={id('customer')} value={d.customer} onChange={(e) => onChange({ customer: e.currentTarget.value as Draft['customer'] })}>
            <option value="">{t('rules.anyCustomer')}</option>
            <option value="new">{t('rules.newCustomer')}</option>
            <option value="returning">{t('rules.returningCustomer')}</option>
          </select>
        </div>
        {text('channelKinds', 'rules.channelKinds', 'rules.channelKindsHint')}
        {text('affiliateGroups', 'rules.groups', 'rules.listHint')}
        <div class="field">
          <label for={id('coupon')}>{t('rules.coupon')}</label>
          <select id={id('coupon')} value={d.coupon} onChange={(e) => onChange({ coupon: e.currentTarget.value as Draft['coupon'] })}>
            <option value="none">{t('rules.couponNone')}</option>
            <option value="any">{t('rules.couponAny')}</option>
            <option value="codes">{t('rules.couponCodes')}</option>
          </select>
        </div>
        {d.coupon === 'codes' && text('codes', 'rules.codes', 'rules.listHint')}
        <label>
          {t('rules.min')} ({currency})
          <input inputMode="decimal" size={10} value={d.min} onInput={(e) => onChange({ min: e.currentTarget.value })} />
        </label>
        <label>
          {t('rules.max')} ({currency})
          <input inputMode="decimal" size={10} value={d.max} onInput={(e) => onChange({ max: e.currentTarget.value })} />
        </label>
      </fieldset>
      <fieldset>
        <legend>{t('rules.outcome')}</legend>
        <div class="field">
          <label for={id('transfer')}>{t('rules.transfer')}</label>
          <select id={id('transfer')} value={d.transfer} onChange={(e) => onChange({ transfer: e.currentTarget.value as Draft['transfer'] })}>
            <option value="cps">{t('rules.cps')}</option>
            <option value="cpa">{t('rules.cpa')}</option>
          </select>
        </div>
        <label>
          {d.transfer === 'cps' ? t('rules.percent') : `${t('rules.amount')} (${currency})`}
          <input inputMode="decimal" size={10} required value={d.value} onInput={(e) => onChange({ value: e.currentTarget.value })} />
        </label>
        {d.transfer === 'cpa' && (
          <div class="field">
            <label for={id('per')}>{t('rules.per')}</label>
            <select id={id('per')} value={d.per} onChange={(e) => onChange({ per: e.currentTarget.value as Draft['per'] })}>
              <option value="order">{t('rules.perOrder')}</option>
              <option value="item">{t('rules.perItem')}</option>
            </select>
          </div>
        )}
        <label>
          {t('rules.cap')} ({currency})
          <input inputMode="decimal" size={10} value={d.cap} onInput={(e) => onChange({ cap: e.currentTarget.value })} />
        </label>
      </fieldset>
    </>
  );
}

/** An example order: a few items typed in, the lines and total the rules on the page (saved or not) would give it. */
function Preview({
  currency,
  rulesOf,
  problemsOf,
  onProblems,
}: {
  currency: string;
  rulesOf: () => { rules: Rule[] } | { problems: Map<number, string> };
  problemsOf: (error: Error) => Map<number, string>;
  onProblems: (problems: Map<number, string>) => void;
}) {
  const { t, locale, refusal } = useMessages();
  const [items, setItems] = useState<ExampleItem[]>([{ id: '', price: '', quantity: '1' }]);
  const [customer, setCustomer] = useState<'' | 'new' | 'returning'>('');
  const [channelKind, setChannelKind] = useState('');
  const [coupon, setCoupon] = useState('');
  const [problem, setProblem] = useState('');
  const preview = useMutation({
    mutationFn: async (body: PreviewBody) => ok(await api.POST('/advertiser/commission-rules/preview', { body })).data,
    onError: (error) => {
      if (error instanceof ApiFailure && error.body?.code === 'invalid_commission_rules') onProblems(problemsOf(error));
    },
  });
  return (
    <section aria-labelledby="preview-title">
      <h2 id="preview-title">{t('rules.previewTitle')}</h2>
      <p class="hint">{t('rules.previewHint')}</p>
      <form
        class="stacked"
        aria-label={t('rules.previewTitle')}
        onSubmit={(e) => {
          e.preventDefault();
          const result = rulesOf();
          if ('problems' in result) {
            onProblems(result.problems);
            setProblem(t('rules.fixFirst'));
            return;
          }
          const typed = items.filter((item) => item.id.trim() || item.price.trim());
          const order: PreviewBody['order'] = { items: [] };
          for (const item of typed) {
            const price = centsOf(item.price, locale);
            const quantity = Number(item.quantity);
            if (!item.id.trim() || typeof price !== 'number' || !Number.isInteger(quantity) || quantity < 1) {
              setProblem(t('rules.badItem', { id: item.id || '—' }));
              return;
            }
            order.items.push({ id: item.id.trim(), price, quantity });
          }
          setProblem('');
          preview.mutate({
            rules: result.rules,
            order: { ...order, ...(customer && { customer }), ...(channelKind.trim() && { channelKind: channelKind.trim() }), ...(coupon.trim() && { coupon: coupon.trim() }) },
          });
        }}
      >
        {items.map((item, i) => (
          <fieldset key={i} data-testid="preview-item">
            <legend>{t('rules.itemN', { n: i + 1 })}</legend>
            <label>
              {t('order.itemId')}
              <input value={item.id} onInput={(e) => setItems(items.map((x, j) => (j === i ? { ...x, id: e.currentTarget.value } : x)))} />
            </label>
            <label>
              {t('order.price')} ({currency})
              <input inputMode="decimal" size={10} value={item.price} onInput={(e) => setItems(items.map((x, j) => (j === i ? { ...x, price: e.currentTarget.value } : x)))} />
            </label>
            <label>
              {t('order.quantity')}
              <input type="number" min={1} size={4} value={item.quantity} onInput={(e) => setItems(items.map((x, j) => (j === i ? { ...x, quantity: e.currentTarget.value } : x)))} />
            </label>
          </fieldset>
        ))}
        <div class="toolbar">
          <button type="button" class="secondary" disabled={items.length >= 100} onClick={() => setItems([...items, { id: '', price: '', quantity: '1' }])}>
            {t('rules.addItem')}
          </button>
        </div>
        <fieldset>
          <legend>{t('rules.previewOrder')}</legend>
          <div class="field">
            <label for="preview-customer">{t('rules.customer')}</label>
            <select id="preview-customer" value={customer} onChange={(e) => setCustomer(e.currentTarget.value as typeof customer)}>
              <option value="">{t('rules.unknownCustomer')}</option>
              <option value="new">{t('rules.newCustomer')}</option>
              <option value="returning">{t('rules.returningCustomer')}</option>
            </select>
          </div>
          <label>
            {t('rules.previewChannel')}
            <input value={channelKind} onInput={(e) => setChannelKind(e.currentTarget.value)} />
          </label>
          <label>
            {t('rules.previewCoupon')}
            <input value={coupon} onInput={(e) => setCoupon(e.currentTarget.value)} />
          </label>
        </fieldset>
        <button type="submit" disabled={preview.isPending}>
          {t('rules.preview')}
        </button>
      </form>
      {problem && (
        <p role="alert" class="error">
          {problem}
        </p>
      )}
      {preview.isError && (
        <p role="alert" class="error">
          {refusal(preview.error)}
        </p>
      )}
      {preview.data && <CommissionLines lines={preview.data.lines} capped={preview.data.capped} total={preview.data.total} rounding={preview.data.rounding} currency={preview.data.currency} testId="preview" />}
    </section>
  );
}
