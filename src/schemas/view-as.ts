// An operator's read-only view as a member (support): what starts one, and the view as the
// operator and the portal read it.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Examples } from './common.js';

export const ViewAsStart = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why you view as the member: its people read it in their session list, and the audit trail keeps it' }) },
  { additionalProperties: false, ...Examples({ support: ['A support request', { reason: 'Ticket 4512: the orders page shows no payouts' }] }) },
);
export type ViewAsStart = Static<typeof ViewAsStart>;

export const ViewAs = Type.Object(
  {
    id: Type.String({ description: 'The view’s id (vas_…): the member sees it in their session list, the audit entry names it' }),
    kind: Type.Union([Type.Literal('affiliate'), Type.Literal('brand')]),
    affiliateId: Type.Optional(Type.String({ description: 'The affiliate viewed (or brandId)' })),
    brandId: Type.Optional(Type.String({ description: 'The brand viewed (or affiliateId)' })),
    name: Type.String({ description: 'The member’s name' }),
    reason: Type.String(),
    startedAt: DateTime,
    expiresAt: { ...DateTime, description: 'When the view ends by itself (VIEW_AS_MINUTES after it started, however it is used)' },
    suspendedAt: Type.Optional({ ...DateTime, description: 'Set while the member is suspended: since when (a suspended member can be viewed)' }),
  },
  { $id: 'ViewAs', description: 'An operator’s read-only view as a member: its owner’s reading, every change refused (403 read_only_view)' },
);
