import type { ComponentChildren } from 'preact';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMessages } from '../i18n/index.js';

/** A query's loading and error states, or its data given to `children`. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ComponentChildren }) {
  const { t, refusal } = useMessages();
  if (query.isPending) return <p role="status">{t('common.loading')}</p>;
  if (query.isError)
    return (
      <div role="alert" class="error">
        <p>{refusal(query.error)}</p>
        <button type="button" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  return <>{children(query.data)}</>;
}
