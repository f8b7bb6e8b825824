// Builds the Channel objects shown on brands, campaigns and link creation: every channel of the
// calling affiliate, with its links for the resource and, where blocked, the reason.
import type { Channel } from '../../schemas/channel.js';
import type { AffiliateChannel } from '../../storage/repositories/affiliates.js';
import type { ResourceLink } from '../../storage/repositories/links.js';

export const shortUrlOf = (publicUrl: string, code: string): string => `${publicUrl}/${code}`;

export function channelView(channel: AffiliateChannel, shortUrls: string[], message: string | undefined): Channel {
  const view: Channel = {
    id: channel.id,
    name: channel.name,
    availableChannel: { id: channel.kindId, name: channel.kindName },
    shortUrls: message ? [] : shortUrls,
  };
  if (message) view.message = message;
  return view;
}

/** Groups links by channel, keeping only active ones, as short URLs. */
export function shortUrlsByChannel(links: ResourceLink[], publicUrl: string, keyOf: (link: ResourceLink) => string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const link of links) {
    if (link.active !== 1) continue;
    const key = `${keyOf(link)}|${link.channel_id}`;
    const list = map.get(key) ?? [];
    list.push(shortUrlOf(publicUrl, link.code));
    map.set(key, list);
  }
  return map;
}
