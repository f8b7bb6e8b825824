// The network's terms for a brand's statements (its fee on each commission billed, the days to pay
// a statement), as an operator changes them and as the brand is told of the change.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Examples } from './common.js';

const terms = {
  feeBasisPoints: Type.Integer({ minimum: 0, maximum: 10_000, description: "The network's fee on each commission billed, in basis points of the commission (250: 2.5 %, 3000: 30 %)" }),
  dueDays: Type.Integer({ minimum: 0, maximum: 365, description: 'Days the brand has to pay a statement after it is issued' }),
};

export const NetworkTerms = Type.Object(terms, { $id: 'NetworkTerms', description: "The network's terms for a brand's statements, as they are now: they apply to the next statement issued; each statement keeps the fee it was issued with" });
export type NetworkTerms = Static<typeof NetworkTerms>;

export const NetworkTermsChange = Type.Object(
  {
    feeBasisPoints: Type.Optional(terms.feeBasisPoints),
    dueDays: Type.Optional(terms.dueDays),
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why: the brand’s owners are mailed it, its webhooks carry it, and the audit trail keeps it' }),
  },
  {
    additionalProperties: false,
    description: 'The fee, the due days or both (one at least); what is left out stays as it is',
    ...Examples({ fee: ['A lower fee', { feeBasisPoints: 250, reason: 'Volume agreement of November' }], both: ['Fee and due days', { feeBasisPoints: 3000, dueDays: 15, reason: 'Contract renewed for 2027' }] }),
  },
);
export type NetworkTermsChange = Static<typeof NetworkTermsChange>;

export const NetworkTermsChanged = Type.Object(
  {
    brandId: Type.String(),
    ...terms,
    previous: Type.Object(terms, { description: 'The terms before this change' }),
    reason: Type.String({ description: 'Why the network changed them' }),
    changedAt: DateTime,
  },
  { $id: 'NetworkTermsChanged', description: "A change of the network's terms for a brand's statements: from the next statement issued on; statements issued already keep theirs" },
);
export type NetworkTermsChanged = Static<typeof NetworkTermsChanged>;
