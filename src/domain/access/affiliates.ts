// Affiliates, their channels and their approvals for private brands: operator-managed data.
import type { Database } from '../../storage/database.js';
import { DomainError } from '../errors.js';
import { newId } from '../random.js';
import { nowIso } from '../time.js';

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
  await database.db
    .insertInto('channel_kinds')
    .values(CHANNEL_KINDS.map((k) => ({ id: k.id, name: k.name })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

const AFFILIATE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export async function upsertAffiliate(database: Database, id: string, name: string): Promise<void> {
  if (!AFFILIATE_ID.test(id)) throw new DomainError(400, 'invalid_affiliate_id', 'affiliate id must be 1-64 letters, digits, dots, dashes or underscores');
  await database.db
    .insertInto('affiliates')
    .values({ id, name, created_at: nowIso() })
    .onConflict((oc) => oc.column('id').doUpdateSet({ name }))
    .execute();
}

export async function addChannel(database: Database, affiliateId: string, kindId: string, name: string, id: string = newId()): Promise<string> {
  await ensureChannelKinds(database);
  const kind = await database.db.selectFrom('channel_kinds').select('id').where('id', '=', kindId).executeTakeFirst();
  if (!kind) throw new DomainError(400, 'invalid_channel_kind', `unknown channel kind "${kindId}"; known kinds: ${CHANNEL_KINDS.map((k) => k.id).join(', ')}`);
  const affiliate = await database.db.selectFrom('affiliates').select('id').where('id', '=', affiliateId).executeTakeFirst();
  if (!affiliate) throw new DomainError(404, 'affiliate_not_found', `affiliate "${affiliateId}" does not exist`);
  await database.db
    .insertInto('affiliate_channels')
    .values({ id, affiliate_id: affiliateId, kind_id: kindId, name, created_at: nowIso() })
    .onConflict((oc) => oc.column('id').doUpdateSet({ name, kind_id: kindId }))
    .execute();
  return id;
}

export async function approveForBrand(database: Database, affiliateId: string, brandId: string): Promise<void> {
  await database.db
    .insertInto('brand_approvals')
    .values({ affiliate_id: affiliateId, brand_id: brandId, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['affiliate_id', 'brand_id']).doNothing())
    .execute();
}
