import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { CopyButton } from '../../components/copy-button.js';
import { fieldText } from '../../forms.js';
import type { User } from '../../session.js';

type Side = 'affiliate' | 'brand';
const PATH = { affiliate: '/affiliate/team', brand: '/advertiser/team' } as const;

/** The people of the account; owners add people (a one-time link to hand over), issue new password links, remove people. */
export function Team({ side, me }: { side: Side; me: User }) {
  const { t, date, refusal } = useMessages();
  const queries = useQueryClient();
  const [link, setLink] = useState<string>();
  const owner = me.role === 'owner';
  const team = useQuery({ queryKey: ['team', side], queryFn: async () => ok(await api.GET(PATH[side])).data });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['team', side] });
  const invite = useMutation({
    mutationFn: async (body: { email: string; role: 'owner' | 'member' }) => ok(await api.POST(PATH[side], { body })).data,
    onSuccess: (data) => {
      setLink(data.link);
      refresh();
    },
  });
  const newLink = useMutation({
    mutationFn: async (id: string) => ok(await api.POST(side === 'affiliate' ? '/affiliate/team/{id}/password-link' : '/advertiser/team/{id}/password-link', { params: { path: { id } } })).data,
    onSuccess: (data) => setLink(data.link),
  });
  const remove = useMutation({
    mutationFn: async (id: string) => ok(await api.DELETE(side === 'affiliate' ? '/affiliate/team/{id}' : '/advertiser/team/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const failure = invite.error ?? newLink.error ?? remove.error;
  return (
    <>
      <h1>{t('team.title')}</h1>
      {owner && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            invite.mutate({ email: fieldText(form, 'email'), role: fieldText(form, 'role') === 'owner' ? 'owner' : 'member' });
          }}
        >
          <label>
            {t('signIn.email')}
            <input name="email" type="email" required />
          </label>
          <div class="field">
            <label for="team-role">{t('team.role')}</label>
            <select id="team-role" name="role">
              <option value="member">{t('team.member')}</option>
              <option value="owner">{t('team.owner')}</option>
            </select>
          </div>
          <button type="submit">{t('team.add')}</button>
        </form>
      )}
      {failure && <p role="alert" class="error">{refusal(failure)}</p>}
      {link && (
        <div role="status" class="secret">
          <p>{t('team.linkOnce')}</p>
          <code data-testid="password-link">{link}</code> <CopyButton text={link} label={t('team.title')} />
        </div>
      )}
      <QueryState query={team}>
        {(people) => (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('signIn.email')}</th>
                <th scope="col">{t('team.role')}</th>
                <th scope="col">{t('team.since')}</th>
                {owner && <th scope="col"><span class="visually-hidden">{t('team.actions')}</span></th>}
              </tr>
            </thead>
            <tbody>
              {people.map((person) => (
                <tr key={person.id}>
                  <th scope="row">
                    {person.email} {!person.active && <span class="badge pending">{t('team.invited')}</span>}
                  </th>
                  <td>{person.role === 'owner' ? t('team.owner') : t('team.member')}</td>
                  <td>{date(person.createdAt)}</td>
                  {owner && (
                    <td class="actions">
                      {person.id !== me.id && (
                        <>
                          <button type="button" aria-label={t('team.newLinkFor', { email: person.email })} onClick={() => newLink.mutate(person.id)}>
                            {t('team.newLink')}
                          </button>
                          <button type="button" class="danger" aria-label={t('team.removeNamed', { email: person.email })} onClick={() => remove.mutate(person.id)}>
                            {t('team.remove')}
                          </button>
                        </>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}
