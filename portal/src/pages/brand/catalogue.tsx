import { useState } from 'preact/hooks';
import { FeedsSection } from './feeds-section.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { lowestPrice } from '../../product-price.js';
import { Pager } from '../../components/pager.js';
import { CampaignBadges } from '../../components/campaign-badges.js';
import { RefusedLines } from '../../components/refused-lines.js';
import type { paths } from '../../../../packages/client/index.js';

type BulkAnswer = paths['/advertiser/products/bulk']['post']['responses'][200]['content']['application/json']['data'];
const PAGE_SIZE = 25;

/** The brand's products, a bulk upload of them as NDJSON with the result of every line, and its campaigns. */
export function Catalogue() {
  const { t, number } = useMessages();
  const queries = useQueryClient();
  const upload = useMutation({
    mutationFn: async (file: File): Promise<BulkAnswer> => {
      const text = await file.text();
      // NDJSON text as it is: not serialized as JSON.
      return ok(await api.POST('/advertiser/products/bulk', { body: text, bodySerializer: (body) => body, headers: { 'content-type': 'application/x-ndjson' } })).data;
    },
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['catalogue'] }),
  });
  const answer = upload.data;
  return (
    <>
      <h1>{t('catalogue.title')}</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const file = (e.currentTarget.elements.namedItem('file') as HTMLInputElement).files?.[0];
          if (file) upload.mutate(file);
        }}
      >
        <label>
          {t('catalogue.file')}
          <input name="file" type="file" accept=".ndjson,.jsonl,.txt,application/x-ndjson" required aria-describedby="file-hint" />
          <span id="file-hint" class="hint">
            {t('catalogue.fileHint')}
          </span>
        </label>
        <button type="submit" disabled={upload.isPending}>
          {t('catalogue.upload')}
        </button>
      </form>
      {upload.isError && <p role="alert" class="error">{t('common.error', { message: upload.error.message })}</p>}
      {answer && (
        <div role="status" class="card">
          <p data-testid="upload-summary">{t('catalogue.summary', { lines: number(answer.lines), inserted: number(answer.inserted), updated: number(answer.updated), rejected: number(answer.rejected) })}</p>
          {answer.truncated && <p class="blocked">{t('catalogue.truncated')}</p>}
          {answer.rejected > 0 && (
            <RefusedLines caption={t('catalogue.rejectedLines')} rows={answer.results.filter((r) => r.status === 'rejected').map((r) => ({ line: r.line, id: r.id, reason: r.reason ?? '' }))} testIdPrefix="rejected-" />
          )}
        </div>
      )}
      <FeedsSection />
      <h2>{t('nav.products')}</h2>
      <Products />
      <h2>{t('nav.campaigns')}</h2>
      <Campaigns />
    </>
  );
}

/** The brand's products, a page at a time. */
function Products() {
  const { t, money, date, number } = useMessages();
  const [page, setPage] = useState(1);
  const products = useQuery({
    queryKey: ['catalogue', page],
    queryFn: async () => ok(await api.GET('/advertiser/products', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  return (
    <QueryState query={products}>
      {({ data, meta }) =>
        data.length === 0 ? (
          <p>{t('common.empty')}</p>
        ) : (
          <>
            <p class="hint">{t('products.count', { count: number(meta.total) })}</p>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('products.product')}</th>
                  <th scope="col">{t('catalogue.id')}</th>
                  <th scope="col">{t('products.price')}</th>
                  <th scope="col">{t('products.availability')}</th>
                  <th scope="col">{t('catalogue.updated')}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((product) => {
                  const price = lowestPrice(product);
                  return (
                    <tr key={product.id} data-testid={`product-${product.id}`}>
                      <th scope="row">{product.name}</th>
                      <td>{product.id}</td>
                      <td>{price === undefined ? '—' : money(price, product.currency)}</td>
                      <td>
                        <span class={`badge ${product.available ? 'approved' : 'canceled'}`}>{t(product.available ? 'products.available' : 'products.unavailable')}</span>
                      </td>
                      <td>{date(product.updatedAt)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} label={t('nav.products')} />
          </>
        )
      }
    </QueryState>
  );
}

/** The brand's campaigns (coupons and offers), whatever their period, a page at a time. */
function Campaigns() {
  const { t, date, number } = useMessages();
  const [page, setPage] = useState(1);
  const campaigns = useQuery({
    queryKey: ['catalogue-campaigns', page],
    queryFn: async () => ok(await api.GET('/advertiser/campaigns', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: (previous) => previous,
  });
  return (
    <QueryState query={campaigns}>
      {({ data, meta }) =>
        data.length === 0 ? (
          <p>{t('catalogue.noCampaigns')}</p>
        ) : (
          <>
            <p class="hint">{t('catalogue.campaignCount', { count: number(meta.total) })}</p>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('catalogue.campaign')}</th>
                  <th scope="col">{t('catalogue.id')}</th>
                  <th scope="col">{t('catalogue.status')}</th>
                  <th scope="col">{t('catalogue.code')}</th>
                  <th scope="col">{t('catalogue.period')}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((campaign) => (
                  <tr key={campaign.id} data-testid={`campaign-${campaign.id}`}>
                    <th scope="row">{campaign.name}</th>
                    <td>{campaign.id}</td>
                    <td>
                      <CampaignBadges campaign={campaign} />
                    </td>
                    <td>{campaign.code ? <code class="coupon">{campaign.code}</code> : '—'}</td>
                    <td>{t('campaigns.period', { from: date(campaign.period.startAt), to: date(campaign.period.endAt) })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={page} pages={Math.max(1, meta.totalPages)} onPage={setPage} label={t('nav.campaigns')} />
          </>
        )
      }
    </QueryState>
  );
}
