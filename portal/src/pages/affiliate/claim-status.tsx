// A claim's status in words and colour, and the list filters: shared by the affiliate's and the
// brand's claims pages.
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';
import type { components } from '../../../../packages/client/index.js';

export type ClaimStatus = components['schemas']['Claim']['status'];
export type ClaimFilter = ClaimStatus | 'all';

const WORDS: Record<ClaimStatus, { key: MessageKey; badge: string }> = {
  open: { key: 'claims.open', badge: 'pending' },
  accepted: { key: 'claims.accepted', badge: 'approved' },
  declined: { key: 'claims.declined', badge: 'canceled' },
};

export const CLAIM_FILTERS: Array<[ClaimFilter, MessageKey]> = [
  ['all', 'claims.all'],
  ['open', 'claims.open'],
  ['accepted', 'claims.accepted'],
  ['declined', 'claims.declined'],
];

export function ClaimStatusBadge({ status }: { status: ClaimStatus }) {
  const { t } = useMessages();
  return <span class={`badge ${WORDS[status].badge}`}>{t(WORDS[status].key)}</span>;
}
