import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { CopyButton } from '../../components/copy-button.js';
import type { MessageKey } from '../../i18n/en.js';
import { AFFILIATE_SCOPES, BRAND_SCOPES, type AffiliateScope, type BrandScope } from '../../../../src/domain/access/scopes.js';
import { fieldText } from '../../forms.js';

type Side = 'affiliate' | 'brand';
const PATH = { affiliate: '/affiliate/keys', brand: '/advertiser/keys' } as const;

type Scope = AffiliateScope | BrandScope;

/** What a scope lets a key do, in words (its name beside it, for the API's users); a scope without words fails the type check. */
const scopeWords = (scope: Scope): MessageKey => `scope.${scope}`;
const isScope = (scope: string): scope is Scope => (AFFILIATE_SCOPES as readonly string[]).includes(scope) || (BRAND_SCOPES as readonly string[]).includes(scope);

/** An owner's API keys: create one with chosen scopes (shown once), list, revoke. */
export function ApiKeys({ side }: { side: Side }) {
  const { t, date, refusal } = useMessages();
  const queries = useQueryClient();
  const [created, setCreated] = useState<string>();
  const scopes: readonly string[] = side === 'affiliate' ? AFFILIATE_SCOPES : BRAND_SCOPES;
  const keys = useQuery({ queryKey: ['keys', side], queryFn: async () => ok(await api.GET(PATH[side])).data });
  const create = useMutation({
    // The scopes come from the checkboxes, which list exactly the side's scopes.
    mutationFn: async ({ name, scopes: chosen }: { name: string; scopes: string[] }) =>
      side === 'affiliate'
        ? ok(await api.POST('/affiliate/keys', { body: { name, scopes: chosen as AffiliateScope[] } })).data
        : ok(await api.POST('/advertiser/keys', { body: { name, scopes: chosen as BrandScope[] } })).data,
    onSuccess: (key) => {
      setCreated(key.key);
      void queries.invalidateQueries({ queryKey: ['keys', side] });
    },
  });
  const revoke = useMutation({
    mutationFn: async (id: string) => ok(await api.DELETE(side === 'affiliate' ? '/affiliate/keys/{id}' : '/advertiser/keys/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['keys', side] }),
  });
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const chosen = scopes.filter((scope) => (form.elements.namedItem(scope) as HTMLInputElement | null)?.checked);
    create.mutate({ name: fieldText(form, 'name'), scopes: chosen });
  };
  return (
    <>
      <h1>{t('keys.title')}</h1>
      <form onSubmit={submit} class="stacked">
        <label>
          {t('keys.name')}
          <input name="name" required maxLength={100} />
        </label>
        <fieldset>
          <legend>{t('keys.scopes')}</legend>
          {scopes.map((scope) => (
            <label key={scope} class="check">
              <input type="checkbox" name={scope} defaultChecked />
              {t(scopeWords(scope as Scope))} <code>{scope}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={create.isPending}>
          {t('keys.create')}
        </button>
      </form>
      {create.isError && <p role="alert" class="error">{refusal(create.error)}</p>}
      {created && (
        <div role="status" class="secret">
          <p>{t('keys.shownOnce')}</p>
          <code data-testid="new-key">{created}</code> <CopyButton text={created} label={t('keys.title')} />
        </div>
      )}
      <QueryState query={keys}>
        {(list) =>
          list.length === 0 ? (
            <p>{t('common.empty')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('keys.name')}</th>
                  <th scope="col">{t('keys.prefix')}</th>
                  <th scope="col">{t('keys.scopes')}</th>
                  <th scope="col">{t('keys.created')}</th>
                  <th scope="col"><span class="visually-hidden">{t('keys.revoke')}</span></th>
                </tr>
              </thead>
              <tbody>
                {list.map((key) => (
                  <tr key={key.id}>
                    <th scope="row">{key.name}</th>
                    <td><code>{key.prefix}…</code></td>
                    <td>{key.scopes.map((scope) => (isScope(scope) ? t(scopeWords(scope)) : scope)).join(', ')}</td>
                    <td>{date(key.createdAt)}</td>
                    <td>
                      {key.revokedAt ? (
                        t('keys.revokedOn', { date: date(key.revokedAt) })
                      ) : (
                        <button type="button" class="danger" aria-label={t('keys.revokeNamed', { name: key.name })} onClick={() => revoke.mutate(key.id)}>
                          {t('keys.revoke')}
                        </button>
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
