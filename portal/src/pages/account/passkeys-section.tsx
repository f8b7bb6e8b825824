import { useState } from 'preact/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { fieldText } from '../../forms.js';
import { SECOND_FACTORS_KEY, useSecondFactors } from './second-factors-data.js';
import { needsFactor, useFactorGate } from './factor-confirm.js';

/** The person's passkeys: add one (the browser makes it), rename, remove. */
export function PasskeysSection() {
  const { t, date, refusal } = useMessages();
  const queries = useQueryClient();
  const status = useSecondFactors();
  const [renaming, setRenaming] = useState<string>();
  const gate = useFactorGate();
  const refresh = () => void queries.invalidateQueries({ queryKey: SECOND_FACTORS_KEY });
  const add = useMutation({
    mutationFn: async (name: string) => {
      const options = ok(await api.POST('/session/passkeys/options')).data;
      const passkey = await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
      return ok(await api.POST('/session/passkeys', { body: { ...(name && { name }), passkey: passkey as never } })).data;
    },
    onSuccess: refresh,
    // Someone who has a second factor confirms it first; then the passkey is added.
    onError: (error, name) => gate.caught(error, () => add.mutate(name)),
  });
  const rename = useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) => ok(await api.PATCH('/session/passkeys/{id}', { params: { path: { id } }, body: { name } })).data,
    onSuccess: () => {
      setRenaming(undefined);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async (id: string) => ok(await api.DELETE('/session/passkeys/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
    onError: (error, id) => gate.caught(error, () => remove.mutate(id)),
  });
  const error = [add.error, rename.error, remove.error].find((e) => e && !needsFactor(e));
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t('passkeys.title')}</h2>
      <p>{t('passkeys.intro')}</p>
      <QueryState query={status}>
        {(data) =>
          data.passkeys.length === 0 ? null : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('passkeys.name')}</th>
                  <th scope="col">{t('passkeys.added')}</th>
                  <th scope="col">{t('passkeys.lastUsed')}</th>
                  <th scope="col"><span class="visually-hidden">{t('team.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {data.passkeys.map((passkey) => (
                  <tr key={passkey.id}>
                    <th scope="row">
                      {renaming === passkey.id ? (
                        <form
                          class="inline"
                          onSubmit={(event) => {
                            event.preventDefault();
                            rename.mutate({ id: passkey.id, name: fieldText(event.currentTarget, 'name') });
                          }}
                        >
                          <label>
                            <span class="visually-hidden">{t('passkeys.name')}</span>
                            <input name="name" defaultValue={passkey.name} maxLength={100} required />
                          </label>
                          <button type="submit">{t('common.save')}</button>
                        </form>
                      ) : (
                        passkey.name
                      )}
                    </th>
                    <td>{date(passkey.createdAt)}</td>
                    <td>{passkey.lastUsedAt ? date(passkey.lastUsedAt) : '—'}</td>
                    <td class="actions">
                      <button type="button" aria-label={t('passkeys.renameNamed', { name: passkey.name })} onClick={() => setRenaming(passkey.id)}>
                        {t('passkeys.rename')}
                      </button>{' '}
                      <button type="button" class="danger" aria-label={t('passkeys.removeNamed', { name: passkey.name })} onClick={() => remove.mutate(passkey.id)}>
                        {t('passkeys.remove')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
      {browserSupportsWebAuthn() ? (
        <form
          class="stacked"
          onSubmit={(event) => {
            event.preventDefault();
            add.mutate(fieldText(event.currentTarget, 'name'));
          }}
        >
          <label>
            {t('passkeys.name')}
            <input name="name" maxLength={100} placeholder="Laptop" />
          </label>
          <button type="submit" disabled={add.isPending}>
            {t('passkeys.add')}
          </button>
        </form>
      ) : (
        <p>{t('passkeys.unsupported')}</p>
      )}
      {gate.panel}
      {error && <p role="alert" class="error">{refusal(error)}</p>}
    </section>
  );
}
