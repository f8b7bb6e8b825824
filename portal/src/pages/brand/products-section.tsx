import { useState } from 'preact/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { Pager } from '../../components/pager.js';
import { Choice } from '../../components/choice.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { lowestPrice } from '../../product-price.js';
import type { Product } from '../../../../packages/client/index.js';
import { ProductForm } from './product-form.js';
import { draftOf, duplicateOf, emptyDraft, type Draft } from './product-draft.js';

const PAGE_SIZE = 25;
type Shown = 'all' | 'available' | 'unavailable';
const SHOWN: ReadonlyArray<readonly [Shown, 'productList.all' | 'productList.availableOnly' | 'productList.unavailableOnly']> = [
  ['all', 'productList.all'],
  ['available', 'productList.availableOnly'],
  ['unavailable', 'productList.unavailableOnly'],
];

/** What the form is open for: a new product, a copy of one, or changing one. */
type Editing = { kind: 'new' | 'copy' | 'edit'; draft: Draft; title: string } | undefined;

/** The brand's products, most recently changed first: found by name or code, created, changed, copied and deleted here. */
export function ProductsSection() {
  const messages = useMessages();
  const { t, money, date, refusal } = messages;
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [shown, setShown] = useState<Shown>('all');
  const [editing, setEditing] = useState<Editing>();
  const [said, setSaid] = useState('');
  const query = search.trim();
  const products = useQuery({
    queryKey: ['catalogue', page, query, shown],
    queryFn: async () =>
      ok(
        await api.GET('/advertiser/products', {
          params: { query: { page, limit: PAGE_SIZE, sort: 'changed', ...(query && { q: query }), ...(shown !== 'all' && { isAvailable: shown === 'available' }) } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const brand = useQuery({ queryKey: ['brand'], queryFn: async () => ok(await api.GET('/advertiser/brand')).data });
  const categories = useQuery({ queryKey: ['product-categories'], queryFn: async () => ok(await api.GET('/advertiser/product-categories')).data });
  const refresh = () => {
    void queries.invalidateQueries({ queryKey: ['catalogue'] });
    void queries.invalidateQueries({ queryKey: ['product-categories'] });
  };
  const remove = useMutation({
    mutationFn: async (product: Product) => {
      const result = await api.DELETE('/advertiser/products/{id}', { params: { path: { id: product.id } } });
      ok(result);
      return { name: product.name, kept: result.response.headers.get('x-product-outcome') === 'made_unavailable' };
    },
    onSuccess: ({ name, kept }) => {
      setSaid(t(kept ? 'productList.madeUnavailable' : 'productList.deleted', { name }));
      refresh();
    },
  });
  const open = (next: Editing) => {
    setSaid('');
    remove.reset();
    setEditing(next);
    requestAnimationFrame(() => document.getElementById('product-name')?.focus());
  };
  const currency = brand.data?.currency ?? 'BRL';
  return (
    <section aria-labelledby="products-title">
      <h2 id="products-title">{t('productList.title')}</h2>
      {editing ? (
        <ProductForm
          key={`${editing.kind}-${editing.draft.id}`}
          draft={editing.draft}
          editing={editing.kind === 'edit'}
          title={editing.title}
          currency={currency}
          domains={brand.data?.domains ?? []}
          categories={categories.data ?? []}
          onSaved={(name) => {
            setEditing(undefined);
            setSaid(t('productList.saved', { name }));
            setPage(1);
            refresh();
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : (
        <div class="toolbar">
          <button type="button" onClick={() => open({ kind: 'new', draft: emptyDraft(), title: t('productForm.newTitle') })}>
            {t('productList.new')}
          </button>
        </div>
      )}
      {said && (
        <p role="status" class="notice" data-testid="products-said">
          {said}
        </p>
      )}
      {remove.isError && (
        <p role="alert" class="error">
          {refusal(remove.error)}
        </p>
      )}
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="product-search">{t('productList.search')}</label>
          <input
            id="product-search"
            type="search"
            maxLength={200}
            value={search}
            onInput={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
          />
        </div>
        <Choice
          id="product-shown"
          label={t('productList.show')}
          value={shown}
          choices={SHOWN}
          onChange={(value) => {
            setShown(value);
            setPage(1);
          }}
        />
      </form>
      <QueryState query={products}>
        {({ data, meta }) =>
          data.length === 0 ? (
            <p>{t(query || shown !== 'all' ? 'productList.noMatch' : 'productList.none')}</p>
          ) : (
            <>
              <p class="hint">
                {t('products.count', { count: meta.total })} · {t('productList.order')}
              </p>
              <table class="products">
                <thead>
                  <tr>
                    <th scope="col">{t('products.product')}</th>
                    <th scope="col">{t('productList.code')}</th>
                    <th scope="col">{t('products.price')}</th>
                    <th scope="col">{t('products.availability')}</th>
                    <th scope="col">{t('productList.changed')}</th>
                    <th scope="col">{t('productList.actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((product) => {
                    const price = lowestPrice(product);
                    return (
                      <tr key={product.id} data-testid={`product-${product.id}`}>
                        <th scope="row">{product.name}</th>
                        <td class="wrap">{product.id}</td>
                        <td>{price === undefined ? '—' : money(price, product.currency)}</td>
                        <td>
                          <span class={`badge ${product.available ? 'approved' : 'canceled'}`}>{t(product.available ? 'products.available' : 'products.unavailable')}</span>
                        </td>
                        <td>{date(product.updatedAt)}</td>
                        <td class="row-actions">
                          <button type="button" class="secondary" aria-label={t('productList.editNamed', { name: product.name })} onClick={() => open({ kind: 'edit', draft: draftOf(product), title: t('productForm.editTitle', { name: product.name }) })}>
                            {t('productList.edit')}
                          </button>
                          <button
                            type="button"
                            class="secondary"
                            aria-label={t('productList.duplicateNamed', { name: product.name })}
                            onClick={() => open({ kind: 'copy', draft: duplicateOf(product, t('productList.copyName', { name: product.name })), title: t('productForm.duplicateTitle', { name: product.name }) })}
                          >
                            {t('productList.duplicate')}
                          </button>
                          <ConfirmButton
                            class="danger"
                            disabled={remove.isPending}
                            aria-label={t('productList.deleteNamed', { name: product.name })}
                            question={t('productList.confirmDelete', { name: product.name })}
                            onConfirm={() => {
                              setSaid('');
                              remove.mutate(product);
                            }}
                          >
                            {t('productList.delete')}
                          </ConfirmButton>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} label={t('productList.title')} />
            </>
          )
        }
      </QueryState>
    </section>
  );
}
