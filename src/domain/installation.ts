// What belongs to one installation rather than to a caller: the salt of the visitor and address
// hashes. A constant salt would let anyone holding the clicks table brute-force an IPv4 address
// back from its hash (2^32 tries per user agent); a random salt per installation, kept with the
// data and shared by every instance on it, does not. VISITOR_SALT, when set, is used instead.
import { randomBytes } from 'node:crypto';
import type { SettingsRepository } from '../storage/repositories/settings.js';
import type { Clock } from '../lib/clock.js';

const VISITOR_SALT = 'visitor_salt';

const freshSalt = () => randomBytes(32).toString('base64url');

export class InstallationService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly clock: Clock,
  ) {}

  /** The configured salt, or the installation's own (made at the first start that asks). */
  async visitorSalt(configured?: string): Promise<string> {
    if (configured !== undefined) return configured;
    return this.settings.getOrCreate(VISITOR_SALT, freshSalt(), this.clock.iso());
  }

  /**
   * Replaces the installation's salt; instances use it from their next start. Visitors are new
   * again from then on: repeat clicks and address velocity are counted afresh, and hashes stored
   * before cannot be linked with those after.
   */
  async rotateVisitorSalt(): Promise<void> {
    await this.settings.set(VISITOR_SALT, freshSalt(), this.clock.iso());
  }
}

const SECOND_FACTOR_KEY = 'second_factor_key';

/**
 * The key that encrypts second-factor secrets (authenticator apps' TOTP secrets, AES-256-GCM) and
 * keys the hashes of recovery codes (HMAC-SHA-256): 32 random bytes made at the first use and kept
 * in the settings, like the visitor salt, but never rotated by `visitor-salt rotate` nor replaced by
 * VISITOR_SALT (either would lock everyone out of their authenticator). A leaked export of the
 * factor tables alone, or a log of them, reveals no secret; a copy of the whole database does, as
 * it would reveal the sessions' owners anyway (see docs/decisions.md).
 */
export async function secondFactorKey(settings: SettingsRepository, clock: Clock): Promise<Buffer> {
  return Buffer.from(await settings.getOrCreate(SECOND_FACTOR_KEY, freshSalt(), clock.iso()), 'base64url');
}

const DEEP_LINK_KEY = 'deep_link_key';

/**
 * The key that signs the product pages of feed deep links (HMAC-SHA-256, see links/deep-links.ts):
 * 32 random bytes made at the first use and kept in the settings, shared by every instance. Never
 * rotated: a new key would turn every deep link in the feeds already fetched into a link to the
 * brand's home page.
 */
export async function deepLinkKey(settings: SettingsRepository, clock: Clock): Promise<Buffer> {
  return Buffer.from(await settings.getOrCreate(DEEP_LINK_KEY, freshSalt(), clock.iso()), 'base64url');
}
