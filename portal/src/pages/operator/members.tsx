import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { useActionNotice } from '../../components/action-notice.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { fieldText } from '../../forms.js';
import { ViewAsForm } from './view-as.js';
import { PercentField, percentField } from '../../components/percent-field.js';
import { percentText } from '../../components/network-terms.js';

type Kind = 'affiliate' | 'brand';
const PAGE_SIZE = 50;

/** Affiliates and brands, found by part of their id or name. */
export function OperatorMembers() {
  const { t, date } = useMessages();
  const [kind, setKind] = useState<Kind>('affiliate');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const members = useQuery({
    queryKey: ['operator-members', kind, q, page],
    queryFn: async () => {
      const query = { page, limit: PAGE_SIZE, ...(q && { q }) };
      return ok(kind === 'affiliate' ? await api.GET('/operator/affiliates', { params: { query } }) : await api.GET('/operator/brands', { params: { query } }));
    },
    placeholderData: (previous) => previous,
  });
  return (
    <>
      <h1>{t('operator.members.title')}</h1>
      <form
        class="inline filters"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(fieldText(e.currentTarget, 'q').trim());
          setPage(1);
        }}
      >
        <div class="field">
          <label for="members-kind">{t('operator.members.kind')}</label>
          <select
            id="members-kind"
            value={kind}
            onChange={(e) => {
              setKind(e.currentTarget.value as Kind);
              setPage(1);
            }}
          >
            <option value="affiliate">{t('operator.applications.kind.affiliate')}</option>
            <option value="brand">{t('operator.applications.kind.brand')}</option>
          </select>
        </div>
        <div class="field">
          <label for="members-q">{t('operator.members.search')}</label>
          <input id="members-q" name="q" type="search" maxLength={100} />
        </div>
        <button type="submit">{t('operator.audit.search')}</button>
      </form>
      <QueryState query={members}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t('operator.members.none')}</p>
          ) : (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('operator.members.name')}</th>
                    <th scope="col">{t('operator.members.id')}</th>
                    <th scope="col">{t('operator.members.since')}</th>
                    <th scope="col">{t('operator.members.standing')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((m) => (
                    <tr key={m.id}>
                      <th scope="row">
                        <Link href={`/operator/${kind === 'affiliate' ? 'affiliates' : 'brands'}/${encodeURIComponent(m.id)}`}>{m.name}</Link>
                      </th>
                      <td class="code">{m.id}</td>
                      <td>{date(m.createdAt)}</td>
                      <td>{m.suspended ? t('operator.members.suspended') : t('operator.members.active')}</td>
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

/** One member: its figures over a range, its people, keys and channels. */
export function OperatorMember({ kind, id }: { kind: Kind; id: string }) {
  const { t, money, date } = useMessages();
  const [range, setRange] = useState<{ from?: string; to?: string }>({});
  const member = useQuery({
    queryKey: ['operator-member', kind, id, range],
    queryFn: async () =>
      ok(kind === 'affiliate' ? await api.GET('/operator/affiliates/{id}', { params: { path: { id }, query: range } }) : await api.GET('/operator/brands/{id}', { params: { path: { id }, query: range } })).data,
    placeholderData: (previous) => previous,
  });
  const percent = (bp: number) => `${(bp / 100).toFixed(1)} %`;
  return (
    <QueryState query={member}>
      {(m) => (
        <>
          <h1>{m.name}</h1>
          <p class="hint code">{m.id}</p>
          <StandingForm kind={kind} member={m} />
          {m.networkTerms && <TermsForm id={m.id} terms={m.networkTerms} />}
          <ViewAsForm kind={kind} id={m.id} />
          <form
            class="inline filters"
            onSubmit={(e) => {
              e.preventDefault();
              const from = fieldText(e.currentTarget, 'from');
              const to = fieldText(e.currentTarget, 'to');
              setRange({ ...(from && { from }), ...(to && { to }) });
            }}
          >
            <div class="field">
              <label for="member-from">{t('operator.audit.from')}</label>
              <input id="member-from" name="from" type="date" />
            </div>
            <div class="field">
              <label for="member-to">{t('operator.audit.to')}</label>
              <input id="member-to" name="to" type="date" />
            </div>
            <button type="submit">{t('operator.members.show')}</button>
          </form>
          <h2>{t('operator.members.figures', { from: date(`${m.figures.from}T00:00:00Z`), to: date(`${m.figures.to}T00:00:00Z`) })}</h2>
          <dl class="facts">
            <dt>{t('operator.members.clicks')}</dt>
            <dd>{m.figures.clicks}</dd>
            <dt>{t('operator.members.uncounted')}</dt>
            <dd>{m.figures.uncountedClicks}</dd>
          </dl>
          {m.figures.orders.length > 0 && (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('operator.members.currency')}</th>
                  <th scope="col">{t('operator.members.orders')}</th>
                  <th scope="col">{t('operator.members.sales')}</th>
                  <th scope="col">{t('operator.members.commission')}</th>
                  <th scope="col">{t('operator.members.approvalRate')}</th>
                  <th scope="col">{t('operator.members.declineRate')}</th>
                </tr>
              </thead>
              <tbody>
                {m.figures.orders.map((o) => (
                  <tr key={o.currency}>
                    <th scope="row">{o.currency}</th>
                    <td>{o.orders}</td>
                    <td>{money(o.sales, o.currency)}</td>
                    <td>{money(o.commission, o.currency)}</td>
                    <td>{percent(o.approvalRateBp)}</td>
                    <td>{percent(o.declineRateBp)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>{t('nav.team')}</h2>
          {m.users.length === 0 ? (
            <p>{t('operator.members.noUsers')}</p>
          ) : (
            <ul>
              {m.users.map((u) => (
                <li key={u.id}>
                  {u.email} ({t(u.role === 'owner' ? 'team.owner' : 'team.member')})
                </li>
              ))}
            </ul>
          )}
          <h2>{t('nav.keys')}</h2>
          {m.keys.length === 0 ? (
            <p>{t('operator.members.noKeys')}</p>
          ) : (
            <ul>
              {m.keys.map((k) => (
                <li key={k.id}>
                  <span class="code">{k.prefix}…</span> {k.name}
                  {k.revokedAt && ` (${t('operator.members.revoked')})`}
                </li>
              ))}
            </ul>
          )}
          {m.channels && (
            <>
              <h2>{t('nav.channels')}</h2>
              <ul>
                {m.channels.map((c) => (
                  <li key={c.id}>
                    {c.name} ({c.kind})
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </QueryState>
  );
}

/** The member's standing, and the form that suspends or reactivates it with the reason its owners are mailed. */
function StandingForm({ kind, member }: { kind: Kind; member: { id: string; suspended: boolean; suspendedAt?: string; suspensionReason?: string } }) {
  const { t, dateTime, refusal } = useMessages();
  const queries = useQueryClient();
  const [missing, setMissing] = useState(false);
  const { say, notice } = useActionNotice();
  const change = useMutation({
    mutationFn: async (reason: string) => {
      const params = { path: { id: member.id } };
      const body = { reason };
      if (kind === 'affiliate') return ok(member.suspended ? await api.POST('/operator/affiliates/{id}/reactivate', { params, body }) : await api.POST('/operator/affiliates/{id}/suspend', { params, body }));
      return ok(member.suspended ? await api.POST('/operator/brands/{id}/reactivate', { params, body }) : await api.POST('/operator/brands/{id}/suspend', { params, body }));
    },
    onSuccess: () => {
      say(t(`operator.members.${member.suspended ? 'reactivated' : 'suspended'}.${kind}`));
      void queries.invalidateQueries({ queryKey: ['operator-member'] });
      void queries.invalidateQueries({ queryKey: ['operator-members'] });
      void queries.invalidateQueries({ queryKey: ['operator-audit'] });
    },
  });
  return (
    <section>
      <h2>{t('operator.members.standing')}</h2>
      <p role="status" class={member.suspended ? 'error' : undefined}>
        {member.suspended
          ? t('operator.members.suspendedSince', { at: dateTime(member.suspendedAt ?? ''), reason: member.suspensionReason ?? '' })
          : t('operator.members.activeHint')}
      </p>
      {notice}
      {change.isError && (
        <p role="alert" class="error">
          {refusal(change.error)}
        </p>
      )}
      <form
        class="inline filters"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const reason = fieldText(form, 'reason').trim();
          setMissing(!reason);
          if (reason) change.mutate(reason, { onSuccess: () => form.reset() });
        }}
      >
        <div class="field">
          <label for="standing-reason">{t(member.suspended ? 'operator.members.reactivateReason' : 'operator.members.suspendReason')}</label>
          <input id="standing-reason" name="reason" maxLength={500} aria-invalid={missing} />
          {missing && <span class="error">{t('operator.members.reasonRequired')}</span>}
        </div>
        <button type="submit" class={member.suspended ? undefined : 'danger'} disabled={change.isPending}>
          {t(member.suspended ? 'operator.members.reactivate' : 'operator.members.suspend')}
        </button>
      </form>
    </section>
  );
}

/** The network's terms for a brand's statements, and the form that changes them with the reason the brand is told. */
function TermsForm({ id, terms }: { id: string; terms: { feeBasisPoints: number; dueDays: number } }) {
  const { t, locale, number, refusal } = useMessages();
  const queries = useQueryClient();
  const [missing, setMissing] = useState(false);
  const change = useMutation({
    mutationFn: async (body: { feeBasisPoints: number; dueDays: number; reason: string }) => ok(await api.PUT('/operator/brands/{id}/terms', { params: { path: { id } }, body })).data,
    onSettled: () => {
      void queries.invalidateQueries({ queryKey: ['operator-member'] });
      void queries.invalidateQueries({ queryKey: ['operator-audit'] });
    },
  });
  return (
    <section aria-labelledby="terms-title">
      <h2 id="terms-title">{t('operator.members.terms')}</h2>
      <p data-testid="brand-terms">{t('operator.members.termsNow', { percent: percentText(terms.feeBasisPoints, locale), days: number(terms.dueDays) })}</p>
      <p class="hint">{t('operator.members.termsHint')}</p>
      {change.isSuccess && (
        <p role="status">{t('operator.members.termsSaved', { percent: percentText(change.data.previous.feeBasisPoints, locale), days: number(change.data.previous.dueDays) })}</p>
      )}
      {change.isError && (
        <p role="alert" class="error">
          {refusal(change.error, { fields: { feeBasisPoints: t('operator.members.fee'), dueDays: t('operator.members.dueDays'), reason: t('operator.members.termsReason') } })}
        </p>
      )}
      <form
        class="stacked"
        // A new key when the terms change: the fields start again from the terms in force.
        key={`${terms.feeBasisPoints}-${terms.dueDays}`}
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const reason = fieldText(form, 'reason').trim();
          const feeBasisPoints = percentField(form, 'fee', locale);
          const dueDays = Number(fieldText(form, 'dueDays'));
          setMissing(!reason);
          if (reason && feeBasisPoints !== null) change.mutate({ feeBasisPoints, dueDays, reason });
        }}
      >
        <PercentField name="fee" label={t('operator.members.fee')} defaultBasisPoints={terms.feeBasisPoints} required />
        <div class="field">
          <label for="terms-due-days">{t('operator.members.dueDays')}</label>
          <input id="terms-due-days" name="dueDays" type="number" inputMode="numeric" min={0} max={365} step={1} required defaultValue={String(terms.dueDays)} />
        </div>
        <div class="field">
          <label for="terms-reason">{t('operator.members.termsReason')}</label>
          <input id="terms-reason" name="reason" maxLength={500} aria-invalid={missing} onInput={() => setMissing(false)} />
          {missing && <span class="error">{t('operator.members.reasonRequired')}</span>}
        </div>
        <button type="submit" disabled={change.isPending}>
          {t('operator.members.saveTerms')}
        </button>
      </form>
    </section>
  );
}
