// Passkeys (WebAuthn) with @simplewebauthn/server: registration (options, the browser makes a key
// pair, the server verifies and keeps the public key) and assertions (options, the browser signs
// the challenge, the server verifies the signature). The relying party is PUBLIC_URL: its host
// name is the RP ID and its origin the only origin accepted. Challenges are random, kept on the
// server for five minutes and used once, whatever the outcome. Passkeys are discoverable
// (resident keys): at a passwordless sign-in the authenticator offers the person's own, and the
// credential id names whose they are.
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { SecondFactorsRepository } from '../../storage/repositories/second-factors.js';
import type { UserPasskeyRow, WebauthnChallengeRow } from '../../storage/tables.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, invalid } from '../errors.js';

export type AttestationJson = RegistrationResponseJSON;
export type AssertionJson = AuthenticationResponseJSON;
export type PasskeyOptions = PublicKeyCredentialCreationOptionsJSON | PublicKeyCredentialRequestOptionsJSON;

/** The library and its certificate parsers (700 KB) load with the first passkey asked for, not at every start. */
const webauthn = () => import('@simplewebauthn/server');

const CHALLENGE_LIFETIME_MS = 5 * 60_000;
const MAX_PASSKEYS = 20;

const transportsOf = (row: Pick<UserPasskeyRow, 'transports'>): AuthenticatorTransport[] => JSON.parse(row.transports) as AuthenticatorTransport[];

/** The challenge a browser signed, from its client data; undefined when unreadable. */
function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 200 ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

export class Passkeys {
  private readonly rpID: string;
  private readonly origin: string;

  constructor(
    private readonly store: SecondFactorsRepository,
    private readonly clock: Clock,
    private readonly settings: { publicUrl: string; networkName: string },
  ) {
    const url = new URL(settings.publicUrl);
    this.rpID = url.hostname;
    this.origin = url.origin;
  }

  private async keepChallenge(challenge: string, row: Pick<WebauthnChallengeRow, 'purpose' | 'user_id' | 'ticket_hash'>): Promise<void> {
    const now = this.clock.now();
    await this.store.pruneExpired(new Date(now).toISOString());
    await this.store.insertChallenge({ challenge, ...row, expires_at: new Date(now + CHALLENGE_LIFETIME_MS).toISOString(), created_at: new Date(now).toISOString() });
  }

  /** Takes (uses up) the challenge the browser signed, if it is one of ours for this purpose. */
  private async takeChallenge(clientDataJSON: string, expect: { purpose: WebauthnChallengeRow['purpose']; userId?: string | null; ticketHash?: string | null }): Promise<WebauthnChallengeRow | undefined> {
    const challenge = challengeOf(clientDataJSON);
    if (!challenge) return undefined;
    const row = await this.store.takeChallenge(challenge, this.clock.iso());
    if (!row || row.purpose !== expect.purpose) return undefined;
    if (expect.userId !== undefined && row.user_id !== expect.userId) return undefined;
    if (expect.ticketHash !== undefined && row.ticket_hash !== expect.ticketHash) return undefined;
    return row;
  }

  async registrationOptions(user: { id: string; email: string }, existing: readonly UserPasskeyRow[]): Promise<PublicKeyCredentialCreationOptionsJSON> {
    if (existing.length >= MAX_PASSKEYS) throw conflict('too_many_passkeys', `a person may have at most ${MAX_PASSKEYS} passkeys: remove one first`);
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: this.settings.networkName,
      rpID: this.rpID,
      userName: user.email,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      timeout: CHALLENGE_LIFETIME_MS,
    });
    await this.keepChallenge(options.challenge, { purpose: 'register', user_id: user.id, ticket_hash: null });
    return options;
  }

  async register(userId: string, name: string, attestation: AttestationJson): Promise<UserPasskeyRow> {
    const challenge = await this.takeChallenge(attestation.response.clientDataJSON, { purpose: 'register', userId });
    if (!challenge) throw invalid('invalid_challenge', 'this passkey answers no current request of yours: ask for new options and try again');
    let verified;
    try {
      verified = await (await webauthn()).verifyRegistrationResponse({ response: attestation, expectedChallenge: challenge.challenge, expectedOrigin: this.origin, expectedRPID: this.rpID, requireUserVerification: false });
    } catch (error) {
      throw invalid('invalid_passkey', `the passkey could not be verified: ${(error as Error).message}`);
    }
    if (!verified.verified) throw invalid('invalid_passkey', 'the passkey could not be verified');
    const { credential } = verified.registrationInfo;
    if (await this.store.findPasskey(credential.id)) throw conflict('passkey_exists', 'this passkey is registered already');
    const row: UserPasskeyRow = {
      id: credential.id,
      user_id: userId,
      name: name.slice(0, 100),
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? attestation.response.transports ?? []),
      created_at: this.clock.iso(),
      last_used_at: null,
    };
    await this.store.insertPasskey(row);
    return row;
  }

  async assertionOptions(target: { purpose: 'second_factor' | 'sign_in' | 'confirm'; userId: string | null; ticketHash: string | null; allow: readonly UserPasskeyRow[] }): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: this.rpID,
      allowCredentials: target.allow.map((p) => ({ id: p.id, transports: transportsOf(p) })),
      userVerification: target.purpose === 'sign_in' ? 'required' : 'preferred',
      timeout: CHALLENGE_LIFETIME_MS,
    });
    await this.keepChallenge(options.challenge, { purpose: target.purpose, user_id: target.userId, ticket_hash: target.ticketHash });
    return options;
  }

  /**
   * Verifies an assertion against a challenge of ours for this purpose: the passkey's owner, or
   * undefined. Alone (sign_in) it must have verified the person (PIN, biometrics): it stands for
   * the password as well.
   */
  async verifyAssertion(assertion: AssertionJson, expect: { purpose: 'second_factor' | 'sign_in' | 'confirm'; userId?: string; ticketHash?: string }): Promise<string | undefined> {
    const challenge = await this.takeChallenge(assertion.response.clientDataJSON, expect);
    if (!challenge) return undefined;
    const passkey = await this.store.findPasskey(assertion.id);
    if (!passkey || (expect.userId !== undefined && passkey.user_id !== expect.userId)) return undefined;
    try {
      const result = await (await webauthn()).verifyAuthenticationResponse({
        response: assertion,
        expectedChallenge: challenge.challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        credential: { id: passkey.id, publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')), counter: Number(passkey.counter), transports: transportsOf(passkey) },
        requireUserVerification: expect.purpose === 'sign_in',
      });
      if (!result.verified) return undefined;
      await this.store.usePasskey(passkey.id, result.authenticationInfo.newCounter, this.clock.iso());
      return passkey.user_id;
    } catch {
      return undefined;
    }
  }
}
