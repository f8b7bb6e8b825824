// Fraud holds: a conversion that trips a fraud rule is stored with commission_status 'held' until
// an operator releases it (back to pending) or declines it (canceled, commission_reason
// 'fraud_declined').
// - orders.hold_reasons: the rules it tripped, a JSON array of names; kept after the hold is
//   resolved, so both sides still see why it was held. hold_facts: the rules' numbers and the
//   operator's decision, for the network alone (JSON).
// - orders.customer_hash: an HMAC (the installation's salt) of the customer's emailHash, never the
//   value the brand sent; customer_is_new: the brand's word on whether the customer is new.
// - orders_click_idx: the conversions of one click (FRAUD_MAX_CONVERSIONS_PER_CLICK).
// - clicks.asn: the autonomous system of the client address (ASN_DATABASE), null without one.
//   On PostgreSQL a column added to the partitioned table reaches every partition.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema.alterTable('orders').addColumn('hold_reasons', text).execute();
  await db.schema.alterTable('orders').addColumn('hold_facts', text).execute();
  await db.schema.alterTable('orders').addColumn('customer_hash', text).execute();
  await db.schema.alterTable('orders').addColumn('customer_is_new', 'integer').execute();
  await db.schema.createIndex('orders_click_idx').on('orders').columns(['click_id']).execute();
  await db.schema.alterTable('clicks').addColumn('asn', 'integer').execute();
}
