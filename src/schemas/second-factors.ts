// Second factors of the portal's people: the two-step sign-in, the authenticator app (TOTP),
// recovery codes and passkeys (WebAuthn, in the JSON shapes @simplewebauthn/browser makes).
import { Type, type Static } from '@sinclair/typebox';
import { Examples } from './common.js';

const Code = Type.String({ minLength: 6, maxLength: 12, description: 'The 6 digits the authenticator app shows now (spaces ignored)' });
const RecoveryCode = Type.String({ minLength: 10, maxLength: 20, description: 'One of the ten recovery codes (xxxxx-xxxxx; case and dashes ignored); each works once' });
const Ticket = Type.String({ minLength: 1, maxLength: 100, description: 'The ticket POST /session answered: five minutes, one use, at most 5 wrong codes' });
const B64 = (description: string, maxLength = 4_000) => Type.String({ maxLength, description });

export const Method = Type.Union([Type.Literal('totp'), Type.Literal('recovery_code'), Type.Literal('passkey')]);

export const SecondFactorStep = Type.Object(
  {
    secondFactor: Type.Object({
      required: Type.Literal(true),
      methods: Type.Array(Method, { description: 'What completes the sign-in: totp (a code of the authenticator app), recovery_code, passkey' }),
      ticket: Type.String({ description: 'Send it to POST /session/second-factor with a code, a recovery code or a passkey' }),
      expiresAt: Type.String({ format: 'date-time' }),
    }),
  },
  { description: 'The password was right and the person has a second factor: no session yet, a ticket for the second step' },
);

/** A passkey's signature of a challenge (AuthenticationResponseJSON of WebAuthn). */
export const PasskeyAssertion = Type.Object(
  {
    id: B64('The credential id, base64url', 1_400),
    rawId: B64('The same, base64url', 1_400),
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: B64('base64url'),
        authenticatorData: B64('base64url'),
        signature: B64('base64url'),
        userHandle: Type.Optional(B64('base64url', 200)),
      },
      { additionalProperties: false },
    ),
    clientExtensionResults: Type.Object({}, { additionalProperties: true }),
    authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
  },
  { additionalProperties: false, description: 'What navigator.credentials.get() answers, as JSON (@simplewebauthn/browser startAuthentication)' },
);

/** A new passkey (RegistrationResponseJSON of WebAuthn). */
export const PasskeyAttestation = Type.Object(
  {
    id: B64('The credential id, base64url', 1_400),
    rawId: B64('The same, base64url', 1_400),
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: B64('base64url'),
        attestationObject: B64('base64url', 20_000),
        authenticatorData: Type.Optional(B64('base64url', 20_000)),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(B64('base64url')),
      },
      { additionalProperties: false },
    ),
    clientExtensionResults: Type.Object({}, { additionalProperties: true }),
    authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
  },
  { additionalProperties: false, description: 'What navigator.credentials.create() answers, as JSON (@simplewebauthn/browser startRegistration)' },
);

export const SecondFactorSignIn = Type.Object(
  {
    ticket: Ticket,
    code: Type.Optional(Code),
    recoveryCode: Type.Optional(RecoveryCode),
    passkey: Type.Optional(PasskeyAssertion),
  },
  {
    additionalProperties: false,
    description: 'The ticket and exactly one of code, recoveryCode and passkey',
    ...Examples({ code: ['A code of the authenticator app', { ticket: 'Jx3vQm8TzR1bK5wN0pLs7YdC2hFa9UeG4iOq6MnVtAb', code: '492039' }], recovery: ['A recovery code', { ticket: 'Jx3vQm8TzR1bK5wN0pLs7YdC2hFa9UeG4iOq6MnVtAb', recoveryCode: 'k7m2p-x9qrt' }] }),
  },
);
export type SecondFactorSignIn = Static<typeof SecondFactorSignIn>;

export const TicketOnly = Type.Object({ ticket: Ticket }, { additionalProperties: false, ...Examples({ ticket: ['The ticket', { ticket: 'Jx3vQm8TzR1bK5wN0pLs7YdC2hFa9UeG4iOq6MnVtAb' }] }) });

/** What a browser's passkey answers look like (shortened values, base64url). */
const ASSERTION_EXAMPLE = {
  id: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LVTxR7v3CaKfCz2Vy_g_MHSh7yJ8yL0Pxg6jo_o0hYiew',
  rawId: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LVTxR7v3CaKfCz2Vy_g_MHSh7yJ8yL0Pxg6jo_o0hYiew',
  type: 'public-key',
  response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0', authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ', signature: 'MEUCIQDa7H3V8vGvQb1w3u8', userHandle: 'dXNyX0ZYNXdRNHU5cTJLenRGUmo' },
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
};

export const PasskeySignIn = Type.Object(
  { passkey: PasskeyAssertion },
  { additionalProperties: false, description: 'The signature of the challenge POST /session/passkey/options answered', ...Examples({ passkey: ["The browser's answer (@simplewebauthn/browser startAuthentication)", { passkey: ASSERTION_EXAMPLE }] }) },
);
export type PasskeySignIn = Static<typeof PasskeySignIn>;

/** WebAuthn options as @simplewebauthn/browser takes them (optionsJSON). */
export const PasskeyOptions = Type.Object(
  { challenge: Type.String({ description: 'Random, base64url; works once, for five minutes' }) },
  { additionalProperties: true, description: 'PublicKeyCredentialCreationOptionsJSON (registration) or PublicKeyCredentialRequestOptionsJSON (sign-in), for navigator.credentials' },
);

export const Passkey = Type.Object(
  {
    id: Type.String({ description: 'The credential id (base64url)' }),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { description: 'A passkey of the signed-in person' },
);

export const SecondFactorStatus = Type.Object(
  {
    totp: Type.Object({ enabled: Type.Boolean({ description: 'Whether an authenticator app is set up (and asked for at sign-in)' }) }),
    recoveryCodesLeft: Type.Integer({ description: 'Recovery codes not used yet' }),
    passkeys: Type.Array(Passkey),
    teamRequires: Type.Boolean({ description: 'Whether an owner of the team requires a second factor of every member' }),
    enrolmentRequired: Type.Boolean({ description: 'The team requires one and the person has none: until they set one up, only these session routes answer (elsewhere 403 second_factor_required)' }),
  },
  { description: "The signed-in person's second factors" },
);

export const TotpEnrolment = Type.Object(
  {
    secret: Type.String({ description: 'The secret in base32, to type into the app when the QR code cannot be scanned' }),
    uri: Type.String({ description: 'otpauth://totp/… for the QR code' }),
  },
  { description: 'An authenticator app being set up: it counts once POST /session/totp/confirm has a current code' },
);

export const TotpConfirm = Type.Object({ code: Code }, { additionalProperties: false, ...Examples({ code: ['The code the app shows now', { code: '492039' }] }) });
export type TotpConfirm = Static<typeof TotpConfirm>;

export const RecoveryCodes = Type.Object(
  { recoveryCodes: Type.Array(Type.String(), { description: 'Ten single-use codes, shown this once: keep them somewhere safe' }) },
  { description: 'New recovery codes (the old ones stop working)' },
);

export const Confirmation = Type.Object(
  {
    code: Type.Optional(Code),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  {
    additionalProperties: false,
    description:
      'A current code of the authenticator app; or nothing, when this session passed a code or a passkey within the last 10 minutes (POST /session/second-factor/confirm). A password is refused (400 second_factor_needed) from a person with a second factor: it proves nothing a stolen session lacks',
    ...Examples({ code: ['With a current code', { code: '492039' }], recent: ['Confirmed in the last 10 minutes', {}] }),
  },
);
export type Confirmation = Static<typeof Confirmation>;

export const FactorConfirmation = Type.Object(
  { code: Type.Optional(Code), passkey: Type.Optional(PasskeyAssertion) },
  {
    additionalProperties: false,
    description: 'Exactly one of a current code of the authenticator app and a passkey\'s signature (options from POST /session/second-factor/confirm/passkey-options); a recovery code confirms nothing',
    ...Examples({ code: ['With a current code', { code: '492039' }], passkey: ["With a passkey (@simplewebauthn/browser startAuthentication)", { passkey: ASSERTION_EXAMPLE }] }),
  },
);

export const FactorConfirmed = Type.Object(
  { confirmedUntil: Type.String({ format: 'date-time', description: 'Until when changes that ask for a current second factor need nothing more in this session' }) },
  { description: 'The session passed its second factor now' },
);

export const PasskeyRegistration = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100, description: 'A name to tell it from the others (default: Passkey)' })),
    passkey: PasskeyAttestation,
  },
  {
    additionalProperties: false,
    ...Examples({
      laptop: [
        "A name, and the browser's answer (@simplewebauthn/browser startRegistration)",
        {
          name: 'Work laptop',
          passkey: {
            id: ASSERTION_EXAMPLE.id,
            rawId: ASSERTION_EXAMPLE.rawId,
            type: 'public-key',
            response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVjF', transports: ['internal'] },
            clientExtensionResults: {},
            authenticatorAttachment: 'platform',
          },
        },
      ],
    }),
  },
);
export type PasskeyRegistration = Static<typeof PasskeyRegistration>;

export const PasskeyRename = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false, ...Examples({ rename: ['A clearer name', { name: 'Work laptop' }] }) });
export type PasskeyRename = Static<typeof PasskeyRename>;

export const PasskeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 1_400 }) });

export const TeamSecondFactor = Type.Object(
  { required: Type.Boolean({ description: 'Whether every member must have a second factor (an authenticator app or a passkey)' }) },
  { additionalProperties: false, ...Examples({ on: ['Require a second factor', { required: true }] }) },
);
export type TeamSecondFactor = Static<typeof TeamSecondFactor>;
