// Why a channel gets no link, as the Channel's message says it (the spec's field, in English): the
// service writes these, and the portal reads them back to say the reason in the page's language.
export const APPROVAL_REQUIRED = 'Organization approval is required to generate links';
export const BRAND_INACTIVE = 'This brand is not accepting new links at the moment';
export const CAMPAIGN_EXPIRED = 'This campaign has expired; links can no longer be generated';
export const LINK_DEACTIVATED = 'The link for this request has been deactivated by the network';
export const channelKindNotAllowed = (kindName: string) => `This brand does not accept links from ${kindName} channels`;

export type BlockReason = 'approval' | 'inactive' | 'expired' | 'deactivated' | 'kind';

/** Which reason a Channel's message gives; undefined for one this service does not write. */
export function blockReasonOf(message: string, kindName: string): BlockReason | undefined {
  const known: Record<string, BlockReason> = {
    [APPROVAL_REQUIRED]: 'approval',
    [BRAND_INACTIVE]: 'inactive',
    [CAMPAIGN_EXPIRED]: 'expired',
    [LINK_DEACTIVATED]: 'deactivated',
    [channelKindNotAllowed(kindName)]: 'kind',
  };
  return known[message];
}
