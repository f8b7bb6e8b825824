import { useRef, useState } from 'preact/hooks';
import { useMutation } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { MoneyField, moneyField } from '../../components/money-field.js';
import { fieldText } from '../../forms.js';
import { gtinIsValid, isGtinShaped } from '../../../../src/lib/gtin.js';
import { bodyOf, newProductId, type Draft, type Variant } from './product-draft.js';

interface Props {
  draft: Draft;
  /** edit: the stored product changes (PATCH); otherwise a new one is put under a new code. */
  editing: boolean;
  title: string;
  currency: string;
  /** The brand's domains, where the product's page must be. */
  domains: string[];
  /** The categories the brand's products already have. */
  categories: string[];
  onSaved: (name: string) => void;
  onCancel: () => void;
}

type Problems = Partial<Record<'name' | 'url' | 'listPrice' | 'images' | 'ean' | `variant-ean-${number}`, string>>;

const onDomains = (host: string, domains: string[]) => domains.some((d) => host === d || host.endsWith(`.${d}`));
const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
const isHttpsUrl = (text: string) => {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
};

/** One product's form: what a shop owner fills in, checked on the page, saved through the same product routes any client uses. */
export function ProductForm({ draft, editing, title, currency, domains, categories, onSaved, onCancel }: Props) {
  const messages = useMessages();
  const { t, locale, money, refusal } = messages;
  const [images, setImages] = useState(draft.images.join('\n'));
  const [chosen, setChosen] = useState<string[]>(draft.categories);
  const [variants, setVariants] = useState<Array<Variant & { key: number }>>(draft.variants.map((v, key) => ({ ...v, key })));
  const [problems, setProblems] = useState<Problems>({});
  const nextKey = useRef(draft.variants.length);
  const save = useMutation({
    mutationFn: async ({ id, body }: { id: string; body: ReturnType<typeof bodyOf> }) => {
      const params = { path: { id } };
      return editing ? ok(await api.PATCH('/advertiser/products/{id}', { params, body })).data : ok(await api.PUT('/advertiser/products/{id}', { params, body })).data;
    },
    onSuccess: (product) => onSaved(product.name),
  });
  const known = [...new Set([...categories, ...draft.categories])].sort((a, b) => a.localeCompare(b, locale));
  const shownImages = lines(images).filter(isHttpsUrl).slice(0, 4);
  const domainList = domains.join(', ');

  const gtinProblem = (text: string, field: string): string | undefined => {
    const digits = text.replace(/\s+/g, '');
    if (digits === '' || !/^\d+$/.test(digits)) return undefined;
    if (!isGtinShaped(digits)) return t('productForm.gtinLength', { field });
    return gtinIsValid(digits) ? undefined : t('productForm.gtinInvalid', { field, digits });
  };

  const submit = (form: HTMLFormElement) => {
    const price = moneyField(form, 'price', locale);
    const listPrice = moneyField(form, 'listPrice', locale);
    const url = fieldText(form, 'url').trim();
    const imageLines = lines(images);
    const found: Problems = {};
    const urlLabel = t('productForm.url');
    if (!isHttpsUrl(url)) found.url = t('productForm.urlInvalid', { field: urlLabel, example: `https://${domains[0] ?? 'www.example.com'}/…` });
    else if (domains.length > 0 && !onDomains(new URL(url).hostname.toLowerCase(), domains)) found.url = t('productForm.urlOffDomain', { field: urlLabel, domains: domainList });
    if (price !== null && listPrice !== null && listPrice < price) found.listPrice = t('productForm.listPriceLow', { field: t('productForm.listPrice'), price: money(price, currency) });
    if (imageLines.some((l) => !isHttpsUrl(l))) found.images = t('productForm.imagesInvalid', { field: t('productForm.images') });
    const ean = fieldText(form, 'ean').replace(/\s+/g, '');
    const eanProblem = gtinProblem(ean, t('productForm.gtin'));
    if (eanProblem) found.ean = eanProblem;
    const typed = variants.map((v, i) => {
      const n = i + 1;
      const variantEan = fieldText(form, `variant-ean-${v.key}`).replace(/\s+/g, '');
      const problem = gtinProblem(variantEan, t('productForm.optionGtin', { n }));
      if (problem) found[`variant-ean-${v.key}`] = problem;
      return {
        id: v.id,
        name: fieldText(form, `variant-name-${v.key}`).trim(),
        ean: variantEan,
        available: (form.elements.namedItem(`variant-available-${v.key}`) as HTMLInputElement).checked,
        price: moneyField(form, `variant-price-${v.key}`, locale),
      };
    });
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first || price === null) {
      if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
      return;
    }
    const name = fieldText(form, 'name').trim();
    const typedId = fieldText(form, 'id').trim();
    const id = editing ? draft.id : typedId || newProductId(name);
    const newCategories = fieldText(form, 'newCategory')
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c !== '');
    const allCategories = [...chosen];
    for (const c of newCategories) if (!allCategories.some((k) => k.toLowerCase() === c.toLowerCase())) allCategories.push(c);
    const body = bodyOf({
      ...draft,
      id,
      name,
      url,
      price,
      listPrice,
      available: (form.elements.namedItem('available') as HTMLInputElement).checked,
      images: imageLines,
      categories: allCategories,
      description: fieldText(form, 'description'),
      ean,
      variants: typed,
    });
    save.mutate({ id, body });
  };

  /** A field's refusal goes once the person changes the field. */
  const clear = (field: keyof Problems) => () => problems[field] && setProblems(({ [field]: _gone, ...rest }) => rest);
  const problem = (field: keyof Problems) =>
    problems[field] ? (
      <span id={`product-${field}-error`} class="error" role="alert" data-testid={`${field}-error`}>
        {problems[field]}
      </span>
    ) : null;
  const described = (field: keyof Problems, hint?: string) => [hint, problems[field] ? `product-${field}-error` : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <form
      class="product-form"
      aria-labelledby="product-form-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit(e.currentTarget);
      }}
    >
      <h2 id="product-form-title">{title}</h2>
      <div class="field">
        <label for="product-name">{t('productForm.name')}</label>
        <input id="product-name" name="name" required maxLength={500} defaultValue={draft.name} autoComplete="off" />
      </div>
      <div class="field" onInput={clear('url')}>
        <label for="product-url">{t('productForm.url')}</label>
        <input id="product-url" name="url" required maxLength={2048} inputMode="url" autoComplete="off" defaultValue={draft.url} aria-invalid={problems.url ? 'true' : undefined} aria-describedby={described('url', 'product-url-hint')} />
        <span id="product-url-hint" class="hint">
          {t('productForm.urlHint', { domains: domainList })}
        </span>
        {problem('url')}
      </div>
      <div class="prices">
        <MoneyField name="price" label={t('productForm.price')} currency={currency} defaultCents={draft.price} required />
        <div class="field" onInput={clear('listPrice')}>
          <MoneyField name="listPrice" label={t('productForm.listPrice')} currency={currency} defaultCents={draft.listPrice} hint={t('productForm.listPriceHint')} />
          {problem('listPrice')}
        </div>
      </div>
      <label class="check">
        <input type="checkbox" name="available" defaultChecked={draft.available} />
        {t('productForm.available')}
      </label>
      <div class="field" onInput={clear('images')}>
        <label for="product-images">{t('productForm.images')}</label>
        <textarea id="product-images" name="images" rows={3} value={images} onInput={(e) => setImages(e.currentTarget.value)} aria-invalid={problems.images ? 'true' : undefined} aria-describedby={described('images', 'product-images-hint')} />
        <span id="product-images-hint" class="hint">
          {t('productForm.imagesHint')}
        </span>
        {problem('images')}
        {shownImages.length > 0 && (
          <ul class="previews">
            {shownImages.map((src, i) => (
              <li key={src}>
                <img src={src} alt={t('productForm.imageAlt', { n: i + 1 })} loading="lazy" />
              </li>
            ))}
          </ul>
        )}
      </div>
      <fieldset class="categories">
        <legend>{t('productForm.categories')}</legend>
        {known.length > 0 && (
          <div class="category-choices">
            {known.map((category) => (
              <label class="check" key={category}>
                <input
                  type="checkbox"
                  checked={chosen.includes(category)}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    setChosen((was) => (on ? [...was, category] : was.filter((c) => c !== category)));
                  }}
                />
                {category}
              </label>
            ))}
          </div>
        )}
        <div class="field">
          <label for="product-new-category">{t('productForm.newCategory')}</label>
          <input id="product-new-category" name="newCategory" autoComplete="off" aria-describedby="product-new-category-hint" />
          <span id="product-new-category-hint" class="hint">
            {t('productForm.newCategoryHint')}
          </span>
        </div>
      </fieldset>
      <div class="field">
        <label for="product-description">{t('productForm.description')}</label>
        <textarea id="product-description" name="description" rows={4} maxLength={100_000} defaultValue={draft.description} />
      </div>
      {variants.length === 0 && (
        <div class="field" onInput={clear('ean')}>
          <label for="product-ean">{t('productForm.gtin')}</label>
          <input id="product-ean" name="ean" inputMode="numeric" autoComplete="off" maxLength={64} defaultValue={draft.ean} aria-invalid={problems.ean ? 'true' : undefined} aria-describedby={described('ean', 'product-ean-hint')} />
          <span id="product-ean-hint" class="hint">
            {t('productForm.gtinHint')}
          </span>
          {problem('ean')}
        </div>
      )}
      <details class="form-section" open={draft.variants.length > 0}>
        <summary>{t('productForm.options')}</summary>
        <p class="hint">{t('productForm.optionsHint')}</p>
        {variants.map((v, i) => {
          const n = i + 1;
          const eanField = `variant-ean-${v.key}` as const;
          return (
            <fieldset class="variant" key={v.key}>
              <legend>{t('productForm.optionName', { n })}</legend>
              <div class="field">
                <label for={`variant-name-${v.key}`}>{t('productForm.optionLabel', { n })}</label>
                <input id={`variant-name-${v.key}`} name={`variant-name-${v.key}`} required maxLength={500} defaultValue={v.name} autoComplete="off" />
              </div>
              <MoneyField name={`variant-price-${v.key}`} label={t('productForm.optionPrice', { n })} currency={currency} defaultCents={v.price} />
              <div class="field" onInput={clear(eanField)}>
                <label for={eanField}>{t('productForm.optionGtin', { n })}</label>
                <input id={eanField} name={eanField} inputMode="numeric" autoComplete="off" maxLength={64} defaultValue={v.ean} aria-describedby={problems[eanField] ? `product-${eanField}-error` : undefined} />
                {problem(eanField)}
              </div>
              <label class="check">
                <input type="checkbox" name={`variant-available-${v.key}`} defaultChecked={v.available} />
                {t('productForm.optionAvailable', { n })}
              </label>
              <button type="button" class="danger" onClick={() => setVariants((was) => was.filter((w) => w.key !== v.key))}>
                {t('productForm.removeOption', { n })}
              </button>
            </fieldset>
          );
        })}
        <button type="button" class="secondary" onClick={() => setVariants((was) => [...was, { key: nextKey.current++, id: '', name: '', ean: '', available: true, price: null }])}>
          {t('productForm.addOption')}
        </button>
      </details>
      <details class="form-section">
        <summary>{t('productForm.more')}</summary>
        {editing ? (
          <p class="wrap">{t('productForm.idFixed', { id: draft.id })}</p>
        ) : (
          <div class="field">
            <label for="product-id">{t('productForm.id')}</label>
            <input id="product-id" name="id" maxLength={200} autoComplete="off" defaultValue={draft.id} aria-describedby="product-id-hint" />
            <span id="product-id-hint" class="hint">
              {t('productForm.idHint')}
            </span>
          </div>
        )}
      </details>
      {save.isError && (
        <p role="alert" class="error">
          {refusal(save.error, { values: { domains: domainList } })}
        </p>
      )}
      <div class="toolbar">
        <button type="submit" disabled={save.isPending}>
          {t('productForm.save')}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
