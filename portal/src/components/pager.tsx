import { useMessages } from '../i18n/index.js';

/** Previous and next page; `label` names what is paged where a page has more than one pager. */
export function Pager({ page, pages, onPage, label }: { page: number; pages: number; onPage: (page: number) => void; label?: string }) {
  const { t } = useMessages();
  const where = t('common.page', { page, pages });
  return (
    <nav class="pager" aria-label={label ? `${label}: ${where}` : where}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('common.previous')}
      </button>
      <span>{t('common.page', { page, pages })}</span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('common.next')}
      </button>
    </nav>
  );
}
