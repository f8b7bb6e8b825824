// The portal's query client. A change (a mutation) invalidates what it made stale, and the pages
// showing it load it again. TanStack Query does so by cancelling a load in flight only when the
// query already has data: a page's first load still in flight is reused instead. That load may have
// been answered before the change was made (a slow connection, a busy server), and the page would
// then show what was there before the change, with nothing left to load it again: statements
// issued but not listed. Here such first loads are cancelled first, so the new load starts after
// the change.
import { QueryClient } from '@tanstack/react-query';

export class PortalQueryClient extends QueryClient {
  override async invalidateQueries(...args: Parameters<QueryClient['invalidateQueries']>): Promise<void> {
    const [filters] = args;
    await this.cancelQueries({ ...filters, fetchStatus: 'fetching', predicate: (query) => query.state.data === undefined && (filters?.predicate?.(query) ?? true) });
    return super.invalidateQueries(...args);
  }
}
