/** A campaign's key across the network: its brand and its id (an id is unique per brand only). */
export const campaignKey = (brandId: string, id: string): string => `${brandId}|${id}`;
