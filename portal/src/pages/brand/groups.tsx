import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import type { paths } from '../../../../packages/client/index.js';
import { ConfirmButton } from '../../components/confirm-button.js';

type Group = paths['/advertiser/groups']['get']['responses'][200]['content']['application/json']['data'][number];
interface Draft {
  id: string;
  name: string;
  members: string;
  minApprovedOrders: string;
}

const EMPTY: Draft = { id: '', name: '', members: '', minApprovedOrders: '' };
/** What the service accepts as a group's id (it says what to fix when it refuses one). */
const ID_PATTERN = '[a-z0-9][a-z0-9_\\-]{0,39}';
const draftOf = (group: Group): Draft => ({ id: group.id, name: group.name, members: group.members.join(', '), minApprovedOrders: group.tier ? String(group.tier.minApprovedOrders) : '' });
const idsIn = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The brand's affiliate groups, which its commission rules name: affiliates placed by hand, and volume tiers placed by last month's approved orders. */
export function BrandGroups() {
  const { t, number, refusal, month } = useMessages();
  const queries = useQueryClient();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [saved, setSaved] = useState('');
  const groups = useQuery({ queryKey: ['brand-groups'], queryFn: async () => ok(await api.GET('/advertiser/groups')).data });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['brand-groups'] });
  const save = useMutation({
    mutationFn: async (d: Draft) =>
      ok(
        await api.PUT('/advertiser/groups/{id}', {
          params: { path: { id: d.id.trim() } },
          body: { name: d.name.trim(), members: idsIn(d.members), ...(d.minApprovedOrders.trim() !== '' && { tier: { minApprovedOrders: Number(d.minApprovedOrders) } }) },
        }),
      ).data,
    onSuccess: (group) => {
      setSaved(group.name);
      setDraft(EMPTY);
      remove.reset();
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async (id: string) => ok(await api.DELETE('/advertiser/groups/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      save.reset();
      refresh();
    },
  });
  const failure = save.error ?? remove.error;
  const set = (field: keyof Draft) => (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => setDraft({ ...draft, [field]: e.currentTarget.value });
  return (
    <>
      <h1>{t('groups.title')}</h1>
      <p class="hint">
        {t('groups.hint')} <Link href="/commission-rules">{t('nav.commissionRules')}</Link>
      </p>
      <form
        class="stacked"
        aria-labelledby="group-form-title"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved('');
          save.mutate(draft);
        }}
      >
        <h2 id="group-form-title">{t('groups.formTitle')}</h2>
        <div class="field">
          <label for="group-id">{t('groups.id')}</label>
          <input id="group-id" value={draft.id} onInput={set('id')} required pattern={ID_PATTERN} maxLength={40} autoComplete="off" aria-describedby="group-id-hint" />
          <span id="group-id-hint" class="hint">
            {t('groups.idHint')}
          </span>
        </div>
        <div class="field">
          <label for="group-name">{t('groups.name')}</label>
          <input id="group-name" value={draft.name} onInput={set('name')} required maxLength={100} />
        </div>
        <div class="field">
          <label for="group-members">{t('groups.members')}</label>
          <textarea id="group-members" value={draft.members} onInput={set('members')} rows={3} aria-describedby="group-members-hint" />
          <span id="group-members-hint" class="hint">
            {t('groups.membersHint')} <Link href="/affiliates">{t('nav.affiliates')}</Link>
          </span>
        </div>
        <div class="field">
          <label for="group-tier">{t('groups.tier')}</label>
          <input id="group-tier" type="number" min={1} max={1000000} step={1} inputMode="numeric" value={draft.minApprovedOrders} onInput={set('minApprovedOrders')} aria-describedby="group-tier-hint" />
          <span id="group-tier-hint" class="hint">
            {t('groups.tierHint')}
          </span>
        </div>
        <div class="toolbar">
          <button type="submit" disabled={save.isPending}>
            {t('groups.save')}
          </button>
          {draft !== EMPTY && (
            <button type="button" class="secondary" onClick={() => setDraft(EMPTY)}>
              {t('groups.clear')}
            </button>
          )}
        </div>
        {saved && !failure && <p role="status">{t('groups.saved', { name: saved })}</p>}
      </form>
      {failure && (
        <p role="alert" class="error">
          {refusal(failure)}
        </p>
      )}
      <h2>{t('groups.list')}</h2>
      <QueryState query={groups}>
        {(list) =>
          list.length === 0 ? (
            <p>{t('groups.none')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('groups.group')}</th>
                  <th scope="col">{t('groups.namedMembers')}</th>
                  <th scope="col">{t('groups.tierColumn')}</th>
                  <th scope="col">
                    <span class="visually-hidden">{t('team.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((group) => (
                  <tr key={group.id} data-testid={`group-${group.id}`}>
                    <th scope="row">
                      {group.name} <code class="hint">{group.id}</code>
                    </th>
                    <td class="wrap">{group.members.length === 0 ? '—' : group.members.join(', ')}</td>
                    <td class="wrap">
                      {group.tier
                        ? [
                            t('groups.tierRule', { n: number(group.tier.minApprovedOrders) }),
                            group.tier.month === undefined
                              ? t('groups.tierNotYet')
                              : t('groups.tierPlaced', { month: month(group.tier.month), members: group.tier.members.length === 0 ? '—' : group.tier.members.join(', ') }),
                          ].join(' ')
                        : '—'}
                    </td>
                    <td class="actions">
                      <button type="button" class="secondary" aria-label={t('groups.editNamed', { name: group.name })} onClick={() => setDraft(draftOf(group))}>
                        {t('groups.edit')}
                      </button>
                      <ConfirmButton
                        class="danger"
                        disabled={remove.isPending}
                        aria-label={t('groups.deleteNamed', { name: group.name })}
                        question={t('groups.confirmDelete', { name: group.name })}
                        onConfirm={() => remove.mutate(group.id)}
                      >
                        {t('groups.delete')}
                      </ConfirmButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
    </>
  );
}
