// Where each affiliate is paid. Its owners, signed in to the portal, read and change its payee
// details (no API key reaches them); a change is confirmed with the password again, or with the
// second factor of a person who has one, tells every owner by mail, and holds the affiliate's
// payouts for PAYEE_CHANGE_HOLD_HOURS. The details are stored whole as one AES-256-GCM ciphertext
// bound to the affiliate, carrying the id of the key it was written with, so the key can be
// rotated (rotateKey) while older ciphertexts stay readable. Payout runs ask destinationFor.
import { ownersOf } from '../access/owners.js';
import type { PayeesRepository } from '../../storage/repositories/payees.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { PayeeDetailsRow } from '../../storage/tables.js';
import type { PayeeDetails, PayeeView } from '../../schemas/payee.js';
import type { Clock } from '../../lib/clock.js';
import type { KeyRing } from '../../lib/key-ring.js';
import { seal, sealedFields, unseal, type SealedParts } from '../../lib/sealed-box.js';
import { mailRow } from '../mail/mail-queue.js';
import { isLanguage } from '../access/users-service.js';
import type { ChangeConfirmation, Confirmer, SecondFactorsService } from '../access/second-factors-service.js';
import { notFound, unavailable } from '../errors.js';
import { checkPayeeDetails, maskedView, summaryOf } from './payee-details.js';

export type { PayeeDetails } from '../../schemas/payee.js';
import type { RunLineWait } from '../../schemas/operator-money.js';

/** Where a payout to an affiliate goes, or why it cannot go now. */
export type PayoutDestination =
  | { ready: false; reason: string; waits: RunLineWait }
  | { ready: true; details: PayeeDetails; masked: string; updatedAt: string };

/** Who changes the details: an owner of the affiliate, signed in with this session. */
export interface PayeeEditor extends Confirmer {
  affiliateId: string;
}

export interface PayeeRepositories {
  payees: PayeesRepository;
  users: UsersRepository;
  affiliates: AffiliatesRepository;
}

export interface PayeeSettings {
  /** The keys in force (read again when a key file changes). */
  keys: () => KeyRing;
  /** How long payouts are held after a change (PAYEE_CHANGE_HOLD_HOURS). */
  holdHours: number;
  /** Base of the portal's links in messages. */
  publicUrl: string;
}

export interface RotationResult {
  /** The current key's id, which every row re-encrypted now uses. */
  keyId: string;
  reencrypted: number;
  /** Rows whose key is configured nowhere: left as they are. */
  unreadable: Array<{ affiliateId: string; keyId: string }>;
  /** Rows per key after the rotation. */
  byKey: Array<{ keyId: string; rows: number }>;
}

const FORMAT = 'pk1';
const HOUR = 3_600_000;
const NO_KEY = 'no encryption key is configured on the server (the operator sets PAYEE_ENCRYPTION_KEY, see the README)';
const boundTo = (affiliateId: string) => `payee:${affiliateId}`;

/** The key id a stored ciphertext names; undefined when it is not one of ours. */
export function keyIdIn(stored: string): string | undefined {
  const fields = sealedFields(stored, 5);
  return fields?.[0] === FORMAT ? fields[1] : undefined;
}

class KeyMissing extends Error {}

export class PayeeService {
  constructor(
    private readonly repositories: PayeeRepositories,
    private readonly secondFactors: SecondFactorsService,
    private readonly clock: Clock,
    private readonly settings: PayeeSettings,
  ) {}

  /** Whether details can be saved now (a current key is configured), and its id. */
  keyStatus(): { writable: boolean; keyId?: string } {
    const current = this.settings.keys().current;
    return current ? { writable: true, keyId: current.id } : { writable: false };
  }

  /** The affiliate's details, masked; 404 payee_not_found before they are first saved. */
  async view(affiliateId: string): Promise<PayeeView> {
    const row = await this.repositories.payees.find(affiliateId);
    if (!row) throw notFound('No payee details yet: save them with PUT /affiliate/payee (the portal’s Payout details page)', 'payee_not_found');
    return this.viewOf(row, this.readable(row));
  }

  /**
   * Saves an affiliate's details (whole, replacing any), confirmed by the editor. Details equal to
   * the saved ones change nothing (no mail, no new hold); others mail every owner and hold payouts.
   */
  async save(editor: PayeeEditor, input: PayeeDetails & ChangeConfirmation): Promise<PayeeView> {
    const key = this.settings.keys().current;
    if (!key) throw unavailable('payee_key_missing', `Payee details cannot be saved: ${NO_KEY}. Nothing was changed.`);
    const { password, code, ...given } = input;
    const details = await checkPayeeDetails(given);
    await this.secondFactors.confirmChange(editor, { ...(password !== undefined && { password }), ...(code !== undefined && { code }) });
    const existing = await this.repositories.payees.find(editor.affiliateId);
    if (existing && JSON.stringify(this.readableOrUndefined(existing)) === JSON.stringify(details)) return this.viewOf(existing, details);

    const now = this.clock.iso();
    const heldUntil = new Date(this.clock.now() + this.settings.holdHours * HOUR).toISOString();
    const row = { affiliate_id: editor.affiliateId, details: this.encrypt(editor.affiliateId, details, key), key_id: key.id, updated_by: editor.userId, updated_at: now, held_until: heldUntil };
    await this.repositories.payees.save(row, await this.changeMail(editor, details, now, heldUntil), now);
    return this.viewOf({ ...row, created_at: existing?.created_at ?? now }, details);
  }

  /** Where a payout to the affiliate goes at `now` (ISO), or why it cannot go. */
  async destinationFor(affiliateId: string, now: string): Promise<PayoutDestination> {
    const row = await this.repositories.payees.find(affiliateId);
    if (!row) return { ready: false, reason: 'no payee details', waits: { reason: 'no_payee_details' } };
    if (row.held_until > now) return { ready: false, reason: `payee details changed at ${row.updated_at}: payouts held until ${row.held_until}`, waits: { reason: 'payee_details_held', since: row.updated_at, until: row.held_until } };
    let details: PayeeDetails;
    try {
      details = this.decrypt(row);
    } catch (error) {
      if (error instanceof KeyMissing) return { ready: false, reason: `payee details cannot be read: ${error.message}`, waits: { reason: 'payee_details_unreadable' } };
      throw error;
    }
    return { ready: true, details, masked: summaryOf(details.method), updatedAt: row.updated_at };
  }

  /**
   * Re-encrypts every row not under the current key with it (each from the key its ciphertext
   * names); a row saved meanwhile is left to its new ciphertext, already under the current key.
   */
  async rotateKey(): Promise<RotationResult> {
    const ring = this.settings.keys();
    const current = ring.current;
    if (!current) throw unavailable('payee_key_missing', `Nothing to rotate to: ${NO_KEY}`);
    let reencrypted = 0;
    const unreadable: RotationResult['unreadable'] = [];
    let after = '';
    for (;;) {
      const rows = await this.repositories.payees.notUnderKey(current.id, after, 100);
      if (rows.length === 0) break;
      for (const row of rows) {
        after = row.affiliate_id;
        const named = keyIdIn(row.details) ?? row.key_id;
        if (!ring.find(named)) {
          unreadable.push({ affiliateId: row.affiliate_id, keyId: named });
          continue;
        }
        const details = this.decrypt(row);
        if (await this.repositories.payees.reencrypt(row.affiliate_id, row.details, { details: this.encrypt(row.affiliate_id, details, current), key_id: current.id })) reencrypted++;
      }
    }
    return { keyId: current.id, reencrypted, unreadable, byKey: await this.repositories.payees.countByKey() };
  }

  // ---- At rest ----------------------------------------------------------------------------------

  private encrypt(affiliateId: string, details: PayeeDetails, key: { id: string; key: Buffer }): string {
    return [FORMAT, key.id, ...seal(key.key, JSON.stringify(details), boundTo(affiliateId))].join('.');
  }

  /** The details in clear; KeyMissing when the key they were written with is not configured. */
  private decrypt(row: PayeeDetailsRow): PayeeDetails {
    const fields = sealedFields(row.details, 5);
    if (!fields || fields[0] !== FORMAT) throw new Error(`payee details of ${row.affiliate_id} are not in a known format`);
    const keyId = fields[1]!;
    const key = this.settings.keys().find(keyId);
    if (!key) throw new KeyMissing(this.settings.keys().current ? `they were encrypted with key ${keyId}, which is not configured (add it to PAYEE_ENCRYPTION_OLD_KEYS or the key file)` : 'no encryption key');
    return JSON.parse(unseal(key.key, fields.slice(2) as SealedParts, boundTo(row.affiliate_id))) as PayeeDetails;
  }

  /** The details in clear, or a 503 saying which key is missing. */
  private readable(row: PayeeDetailsRow): PayeeDetails {
    try {
      return this.decrypt(row);
    } catch (error) {
      if (error instanceof KeyMissing) throw unavailable('payee_key_missing', `Payee details cannot be read: ${error.message === 'no encryption key' ? NO_KEY : error.message}`);
      throw error;
    }
  }

  private readableOrUndefined(row: PayeeDetailsRow): PayeeDetails | undefined {
    try {
      return this.decrypt(row);
    } catch (error) {
      if (error instanceof KeyMissing) return undefined;
      throw error;
    }
  }

  private viewOf(row: PayeeDetailsRow, details: PayeeDetails): PayeeView {
    return { ...maskedView(details), updatedAt: row.updated_at, heldUntil: row.held_until, held: row.held_until > this.clock.iso() };
  }

  /** A message to every owner of the affiliate, in their language. */
  private async changeMail(editor: PayeeEditor, details: PayeeDetails, now: string, heldUntil: string) {
    const owners = await ownersOf(this.repositories.users, { affiliateId: editor.affiliateId });
    const account = (await this.repositories.affiliates.nameOf(editor.affiliateId)) ?? editor.affiliateId;
    const changedBy = (await this.repositories.users.findById(editor.userId))?.email ?? 'an owner';
    return owners.map((owner) =>
      mailRow({
        to: owner.email,
        template: 'payee-changed',
        locale: isLanguage(owner.language) ? owner.language : 'en',
        values: { account, changedBy, when: now, until: heldUntil, summary: summaryOf(details.method), url: `${this.settings.publicUrl}/app/payee` },
      }),
    );
  }
}
