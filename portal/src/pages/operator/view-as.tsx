// "View as" for support: from a member's page an operator opens the member's portal as its owner
// sees it, read-only, saying why; a banner on every page says so and ends it. The view is a cookie
// of its own beside the operator's session (the service refuses every change made through it);
// GET /session names it (viewingAs), and the portal then shows the member's pages.
import { useState } from 'preact/hooks';
import { useMutation } from '@tanstack/react-query';
import { api, ApiFailure, ok } from '../../api.js';
import { fieldText } from '../../forms.js';
import { useMessages } from '../../i18n/index.js';
import type { User } from '../../session.js';
import type { components } from '../../../../packages/client/index.js';

export type ViewAs = components['schemas']['ViewAs'];

/** The person the member's pages are drawn for while viewing: the operator, as the member's owner. */
export function viewerOf(user: User, view: ViewAs): User {
  const { affiliateId: _a, brandId: _b, ...rest } = user;
  return { ...rest, role: 'owner', ...(view.affiliateId ? { affiliateId: view.affiliateId } : { brandId: view.brandId ?? '' }) };
}

/** The view ended (expired, or the member ended it): the service says so on the member's routes. */
export const isViewEnded = (error: unknown): boolean => error instanceof ApiFailure && error.body?.code === 'view_as_ended';

/**
 * Into or out of a view the portal starts afresh at `path` (a page load): nothing of one member's
 * pages stays for the next view or for the console, and the session says whose pages to draw.
 */
const switchTo = (path: string): void => window.location.assign(`/app${path}`);

/** On a member's page in the console: view as it, read-only, with the reason its people will read. */
export function ViewAsForm({ kind, id }: { kind: 'affiliate' | 'brand'; id: string }) {
  const { t, refusal } = useMessages();
  const [missing, setMissing] = useState(false);
  const start = useMutation({
    mutationFn: async (reason: string) => {
      const params = { path: { id } };
      return ok(kind === 'affiliate' ? await api.POST('/operator/affiliates/{id}/view-as', { params, body: { reason } }) : await api.POST('/operator/brands/{id}/view-as', { params, body: { reason } })).data;
    },
    onSuccess: () => switchTo('/'),
  });
  return (
    <section class="view-as-start" aria-labelledby="view-as-title">
      <h2 id="view-as-title">{t('viewAs.title')}</h2>
      <p class="hint">{t('viewAs.hint')}</p>
      {start.isError && (
        <p role="alert" class="error">
          {refusal(start.error)}
        </p>
      )}
      <form
        class="inline filters"
        onSubmit={(e) => {
          e.preventDefault();
          const reason = fieldText(e.currentTarget, 'reason').trim();
          setMissing(!reason);
          if (reason) start.mutate(reason);
        }}
      >
        <div class="field">
          <label for="view-as-reason">{t('viewAs.reason')}</label>
          <input id="view-as-reason" name="reason" maxLength={500} aria-invalid={missing} />
          {missing && <span class="error">{t('viewAs.reasonRequired')}</span>}
        </div>
        <button type="submit" class="secondary" disabled={start.isPending}>
          {t('viewAs.start')}
        </button>
      </form>
    </section>
  );
}

/** Above every page while viewing: whose portal this is, read-only, until when; End goes back to the member's page in the console. */
export function ViewAsBanner({ view }: { view: ViewAs }) {
  const { t, dateTime } = useMessages();
  const end = useMutation({
    mutationFn: async () => ok(await api.DELETE('/operator/view-as')),
    onSettled: () => switchTo(`/operator/${view.kind === 'affiliate' ? 'affiliates' : 'brands'}/${encodeURIComponent(view.affiliateId ?? view.brandId ?? '')}`),
  });
  return (
    <div class="view-as" role="status">
      <p>
        <strong>{t('viewAs.banner', { name: view.name })}</strong> <span class="muted">{t('viewAs.until', { at: dateTime(view.expiresAt) })}</span>
        {view.suspendedAt && <span class="error"> · {t('viewAs.suspended', { at: dateTime(view.suspendedAt) })}</span>}
      </p>
      <button type="button" onClick={() => end.mutate()} disabled={end.isPending}>
        {t('viewAs.end')}
      </button>
    </div>
  );
}
