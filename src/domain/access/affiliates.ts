// Affiliates, their channels and their approvals for private brands: operator-managed data.
import type { Database } from '../../storage/database.js';
import { DomainError } from '../errors.js';
import { newId } from '../random.js';
import { nowIso } from '../time.js';
import { brandExists } from '../../storage/repositories/brands.js';
import { affiliateExists, channelKindExists, saveAffiliate, saveApproval, saveChannel, saveChannelKinds } from '../../storage/repositories/affiliates.js';

/** The network-wide kinds of channel an affiliate may publish on. */
export const CHANNEL_KINDS = [
  { id: 'site', name: 'Site' },
  { id: 'instagram', name: 'Instagram' },
  { id: 'whatsapp', name: 'WhatsApp' },
  { id: 'youtube', name: 'YouTube' },
  { id: 'email', name: 'Email' },
  { id: 'tiktok', name: 'TikTok' },
  { id: 'telegram', name: 'Telegram' },
] as const;

export async function ensureChannelKinds(database: Database): Promise<void> {
  await saveChannelKinds(database, CHANNEL_KINDS);
}

const AFFILIATE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export async function upsertAffiliate(database: Database, id: string, name: string): Promise<void> {
  if (!AFFILIATE_ID.test(id)) throw new DomainError('invalid', 'invalid_affiliate_id', 'affiliate id must be 1-64 letters, digits, dots, dashes or underscores');
  await saveAffiliate(database, { id, name, created_at: nowIso() });
}

export async function addChannel(database: Database, affiliateId: string, kindId: string, name: string, id: string = newId()): Promise<string> {
  await ensureChannelKinds(database);
  if (!(await channelKindExists(database, kindId))) throw new DomainError('invalid', 'invalid_channel_kind', `unknown channel kind "${kindId}"; known kinds: ${CHANNEL_KINDS.map((k) => k.id).join(', ')}`);
  await requireAffiliate(database, affiliateId);
  await saveChannel(database, { id, affiliate_id: affiliateId, kind_id: kindId, name, created_at: nowIso() });
  return id;
}

export async function approveForBrand(database: Database, affiliateId: string, brandId: string): Promise<void> {
  await saveApproval(database, { affiliate_id: affiliateId, brand_id: brandId, created_at: nowIso() });
}

/** Throws brand_not_found unless the brand exists: the one place that says so. */
export async function requireBrand(database: Database, brandId: string): Promise<void> {
  if (!(await brandExists(database, brandId))) throw new DomainError('not_found', 'brand_not_found', `brand "${brandId}" does not exist`);
}

/** Throws affiliate_not_found unless the affiliate exists: the one place that says so. */
export async function requireAffiliate(database: Database, affiliateId: string): Promise<void> {
  if (!(await affiliateExists(database, affiliateId))) throw new DomainError('not_found', 'affiliate_not_found', `affiliate "${affiliateId}" does not exist`);
}
