// A passkey in software, for tests without a browser: an authenticator that makes a P-256 key
// pair, answers registration options with a "none" attestation and signs assertions, exactly as
// navigator.credentials would hand them to @simplewebauthn/browser (the JSON the API takes).
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export class SoftPasskey {
  readonly credentialId = randomBytes(16);
  private readonly keys: { publicKey: KeyObject; privateKey: KeyObject } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private counter = 0;
  private userHandle?: string;

  constructor(private readonly origin: string) {}

  get id(): string {
    return b64(this.credentialId);
  }

  private authData(rpId: string, flags: number, attested?: Uint8Array): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  /** The answer to registration options (PublicKeyCredentialCreationOptionsJSON). */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }) {
    this.userHandle = options.user.id;
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, Buffer.from(cose)]);
    // User present, user verified, attested credential data.
    const authData = this.authData(options.rp.id!, 0x45, attested);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: this.origin, crossOrigin: false }));
    return { id: this.id, rawId: this.id, type: 'public-key' as const, response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(attestationObject), transports: ['internal'] }, clientExtensionResults: {} };
  }

  /** The answer to authentication options (PublicKeyCredentialRequestOptionsJSON), user verified. */
  assert(options: { challenge: string; rpId?: string }, origin = this.origin) {
    this.counter += 1;
    const authData = this.authData(options.rpId!, 0x05);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature), ...(this.userHandle && { userHandle: this.userHandle }) },
      clientExtensionResults: {},
    };
  }
}
