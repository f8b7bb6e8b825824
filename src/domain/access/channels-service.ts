// An affiliate's channels: where it publishes (a site, an Instagram profile, a WhatsApp group…),
// each of a network-wide kind. Links are made per channel, and orders name the channel of their
// click. A removed channel takes no new links and leaves the lists, but keeps its row: its links
// already out in the world still redirect and earn, and its orders still name it.
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository, AffiliateChannel } from '../../storage/repositories/affiliates.js';
import { conflict, invalid, notFound } from '../errors.js';
import { newId } from '../random.js';
import { requireAffiliate } from './require.js';
import { checkWebsite } from './application-checks.js';
import { PROFILE_KINDS, type ProfileKind } from '../../lib/profile-addresses.js';

export type { AffiliateChannel };

/** The network-wide kinds of channel an affiliate may publish on. */
export const CHANNEL_KINDS = [
  { id: 'site', name: 'Site' },
  { id: 'instagram', name: 'Instagram' },
  { id: 'whatsapp', name: 'WhatsApp' },
  { id: 'youtube', name: 'YouTube' },
  { id: 'email', name: 'Email' },
  { id: 'tiktok', name: 'TikTok' },
  { id: 'telegram', name: 'Telegram' },
  { id: 'x', name: 'X (Twitter)' },
] as const;

export const CHANNEL_NAME_MAX = 100;

export class ChannelsService {
  constructor(
    private readonly repositories: { affiliates: AffiliatesRepository },
    private readonly clock: Clock,
  ) {}

  /** Makes sure every channel kind exists (a fresh database, demo data). */
  async ensureKinds(): Promise<void> {
    await this.repositories.affiliates.saveChannelKinds(CHANNEL_KINDS);
  }

  /** The affiliate's channels in use, in the order they were added; `includeRemoved` adds the removed ones. */
  list(affiliateId: string, options: { includeRemoved?: boolean } = {}): Promise<AffiliateChannel[]> {
    return this.repositories.affiliates.channelsOf(affiliateId, options);
  }

  /**
   * Adds (or, with an existing id of the same affiliate, renames) a channel: what operators and
   * the demo data do, with ids they choose. Returns its id.
   */
  async add(affiliateId: string, kindId: string, name: string, id: string = newId(), site?: string): Promise<string> {
    await this.ensureKinds();
    await this.requireKind(kindId);
    await requireAffiliate(this.repositories.affiliates, affiliateId);
    if (!(await this.repositories.affiliates.saveChannel({ id, affiliate_id: affiliateId, kind_id: kindId, name, created_at: this.clock.iso(), ...(site !== undefined && { site }) }))) {
      throw conflict('channel_id_taken', `channel id "${id}" belongs to another affiliate; leave the id out to get a new one`);
    }
    return id;
  }

  /**
   * An affiliate adds a channel of its own: the name must differ from its other channels' in use;
   * its address (`site`), when given, is checked as a sign-up's is, as the channel's kind.
   */
  async create(affiliateId: string, kindId: string, name: string, site?: string): Promise<AffiliateChannel> {
    const clean = await this.freeName(affiliateId, name);
    const address = site === undefined ? undefined : addressOf(site, kindId);
    const id = await this.add(affiliateId, kindId, clean, newId(), address);
    return this.found(affiliateId, id);
  }

  /** Renames a channel, gives it a new address, or both. */
  async update(affiliateId: string, id: string, changes: { name?: string; site?: string }): Promise<AffiliateChannel> {
    const channel = await this.found(affiliateId, id);
    // The address is checked before anything is changed: a refused one leaves the name as it was.
    const address = changes.site === undefined ? undefined : addressOf(changes.site, channel.kindId);
    if (changes.name !== undefined) await this.rename(affiliateId, id, changes.name);
    if (address !== undefined && !(await this.repositories.affiliates.setChannelSite(affiliateId, id, address))) throw channelNotFound(id);
    return this.found(affiliateId, id);
  }

  async rename(affiliateId: string, id: string, name: string): Promise<AffiliateChannel> {
    const clean = await this.freeName(affiliateId, name, id);
    if (!(await this.repositories.affiliates.renameChannel(affiliateId, id, clean))) throw channelNotFound(id);
    return this.found(affiliateId, id);
  }

  async remove(affiliateId: string, id: string): Promise<void> {
    if (!(await this.repositories.affiliates.removeChannel(affiliateId, id, this.clock.iso()))) throw channelNotFound(id);
  }

  private async requireKind(kindId: string): Promise<void> {
    if (!(await this.repositories.affiliates.channelKindExists(kindId))) {
      throw invalid('invalid_channel_kind', `unknown channel kind "${kindId}"; known kinds: ${CHANNEL_KINDS.map((k) => k.id).join(', ')}`);
    }
  }

  /** The name trimmed, unless empty, too long, or the name of another channel in use (two alike could not be told apart in a list of links). */
  private async freeName(affiliateId: string, name: string, exceptId?: string): Promise<string> {
    const clean = name.trim();
    if (clean.length === 0 || clean.length > CHANNEL_NAME_MAX) throw invalid('invalid_channel_name', `a channel name is 1 to ${CHANNEL_NAME_MAX} characters, not only spaces`);
    const same = (await this.list(affiliateId)).find((c) => c.id !== exceptId && c.name.toLowerCase() === clean.toLowerCase());
    if (same) throw conflict('channel_name_taken', `you already have a channel named "${same.name}"; choose another name`);
    return clean;
  }

  private async found(affiliateId: string, id: string): Promise<AffiliateChannel> {
    const channel = (await this.list(affiliateId)).find((c) => c.id === id);
    if (!channel) throw channelNotFound(id);
    return channel;
  }
}

/** A channel's address as people write it, checked as its kind's (a site's, or a profile on the kind's network). */
function addressOf(site: string, kindId: string): string {
  return checkWebsite(site, (PROFILE_KINDS as readonly string[]).includes(kindId) ? (kindId as ProfileKind) : undefined).url;
}

export const channelNotFound = (id: string) => notFound(`you have no channel "${id}" (removed channels cannot be changed)`, 'channel_not_found');
