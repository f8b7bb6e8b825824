import { FeedsSection } from './feeds-section.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { ProductsSection } from './products-section.js';
import { RefusedLines } from '../../components/refused-lines.js';
import type { paths } from '../../../../packages/client/index.js';

type BulkAnswer = paths['/advertiser/products/bulk']['post']['responses'][200]['content']['application/json']['data'];

/** The brand's products (kept one by one on the page, or in bulk: a file or feeds, lower down), and the way to its campaigns. */
export function Catalogue() {
  const { t, number, refusal } = useMessages();
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
      <ProductsSection />
      <section aria-labelledby="bulk-title" class="bulk">
        <h2 id="bulk-title">{t('catalogue.bulkTitle')}</h2>
        <p class="hint">{t('catalogue.bulkHint')}</p>
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
        {upload.isError && <p role="alert" class="error">{refusal(upload.error)}</p>}
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
      </section>
      <p>
        <Link href="/campaigns">{t('brandCampaigns.catalogueLink')}</Link>
      </p>
    </>
  );
}
