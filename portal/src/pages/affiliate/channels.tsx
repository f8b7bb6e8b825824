import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import { QueryState } from '../../components/query-state.js';
import { fieldText } from '../../forms.js';
import type { paths } from '../../../../packages/client/index.js';
import { ConfirmButton } from '../../components/confirm-button.js';

type ChannelKind = paths['/affiliate/channels']['post']['requestBody']['content']['application/json']['availableChannelId'];

/** Every kind of channel, in the order the form offers them (the compiler wants each one named). */
const KINDS: Record<ChannelKind, MessageKey> = {
  site: 'channels.kind.site',
  instagram: 'channels.kind.instagram',
  whatsapp: 'channels.kind.whatsapp',
  youtube: 'channels.kind.youtube',
  email: 'channels.kind.email',
  tiktok: 'channels.kind.tiktok',
  telegram: 'channels.kind.telegram',
  x: 'channels.kind.x',
};

/** Where the affiliate publishes: add a channel, rename it, remove it (its links keep working). */
export function Channels() {
  const { t, refusal } = useMessages();
  const queries = useQueryClient();
  const [renaming, setRenaming] = useState<string>();
  const channels = useQuery({ queryKey: ['channels'], queryFn: async () => ok(await api.GET('/affiliate/channels')).data });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['channels'] });
  const add = useMutation({
    mutationFn: async (body: { availableChannelId: ChannelKind; name: string; site?: string }) => ok(await api.POST('/affiliate/channels', { body })).data,
    onSuccess: refresh,
  });
  const rename = useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) => ok(await api.PATCH('/affiliate/channels/{id}', { params: { path: { id } }, body: { name } })).data,
    onSuccess: () => {
      setRenaming(undefined);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async (id: string) => ok(await api.DELETE('/affiliate/channels/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const failure = add.error ?? rename.error ?? remove.error;
  return (
    <>
      <h1>{t('channels.title')}</h1>
      <p class="hint">{t('channels.hint')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const site = fieldText(form, 'site').trim();
          add.mutate({ availableChannelId: fieldText(form, 'kind') as ChannelKind, name: fieldText(form, 'name'), ...(site && { site }) }, { onSuccess: () => form.reset() });
        }}
      >
        <div class="field">
          <label for="channel-kind">{t('channels.kind')}</label>
          <select id="channel-kind" name="kind" required>
            {Object.entries(KINDS).map(([id, key]) => (
              <option key={id} value={id}>
                {t(key)}
              </option>
            ))}
          </select>
        </div>
        <label>
          {t('channels.name')}
          <input name="name" required maxLength={100} placeholder={t('channels.namePlaceholder')} />
        </label>
        <label>
          {t('channels.site')}
          <input name="site" maxLength={2048} inputMode="url" placeholder={t('channels.sitePlaceholder')} />
        </label>
        <button type="submit" disabled={add.isPending}>
          {t('channels.add')}
        </button>
      </form>
      {failure && <p role="alert" class="error">{refusal(failure)}</p>}
      <QueryState query={channels}>
        {(list) =>
          list.length === 0 ? (
            <p>{t('channels.none')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('channels.name')}</th>
                  <th scope="col">{t('channels.kind')}</th>
                  <th scope="col">{t('channels.address')}</th>
                  <th scope="col"><span class="visually-hidden">{t('team.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {list.map((channel) => (
                  <tr key={channel.id} data-testid={`channel-${channel.id}`}>
                    <th scope="row">
                      {renaming === channel.id ? (
                        <form
                          class="inline"
                          onSubmit={(e) => {
                            e.preventDefault();
                            rename.mutate({ id: channel.id, name: fieldText(e.currentTarget, 'name') });
                          }}
                        >
                          <label>
                            <span class="visually-hidden">{t('channels.newName', { name: channel.name })}</span>
                            <input name="name" required maxLength={100} defaultValue={channel.name} autoFocus />
                          </label>
                          <button type="submit">{t('common.save')}</button>
                          <button type="button" class="secondary" onClick={() => setRenaming(undefined)}>
                            {t('common.cancel')}
                          </button>
                        </form>
                      ) : (
                        channel.name
                      )}
                    </th>
                    <td>{KINDS[channel.availableChannel.id as ChannelKind] ? t(KINDS[channel.availableChannel.id as ChannelKind]) : channel.availableChannel.name}</td>
                    <td class="wrap">{channel.site ?? '—'}</td>
                    <td class="actions">
                      {renaming !== channel.id && (
                        <>
                          <button type="button" aria-label={t('channels.renameNamed', { name: channel.name })} onClick={() => setRenaming(channel.id)}>
                            {t('channels.rename')}
                          </button>
                          <ConfirmButton
                            class="danger"
                            aria-label={t('channels.removeNamed', { name: channel.name })}
                            question={t('channels.confirmRemove', { name: channel.name })}
                            onConfirm={() => remove.mutate(channel.id)}
                          >
                            {t('channels.remove')}
                          </ConfirmButton>
                        </>
                      )}
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
