import { Type, type Static } from '@sinclair/typebox';
import { DescribedRef, Examples } from './common.js';
import { ViewAs } from './view-as.js';

const Language = Type.Union([Type.Literal('en'), Type.Literal('pt-BR')], { description: "The person's language, for the portal and the mail they are sent; absent until chosen (mail goes in English meanwhile)" });

export const User = Type.Object(
  {
    id: Type.String(),
    email: Type.String({ format: 'email' }),
    role: Type.Union([Type.Literal('owner'), Type.Literal('member'), Type.Literal('operator')], {
      description: 'owner: manages the team and API keys as well; member: everything else of the account; operator: one of the people who run the network (no affiliate, no brand; the console)',
    }),
    affiliateId: Type.Optional(Type.String({ description: 'The affiliate the user works for (or brandId)' })),
    brandId: Type.Optional(Type.String({ description: 'The brand the user works for (or affiliateId)' })),
    active: Type.Boolean({ description: 'False until the user has set a password with their one-time link' }),
    language: Type.Optional(Language),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'User', description: 'A person who signs in to the portal, for one affiliate or one brand' },
);

export const Session = Type.Object(
  {
    user: Type.Ref(User),
    csrfToken: Type.String({ description: 'Send it in the x-csrf-token header with every request that changes something' }),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the session ends unless used again' })),
    accountSuspendedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: "Addition: set while the network has suspended the user's affiliate or brand, since when. The person can still sign in and manage their own sessions and second factors, but every API route answers 403 account_suspended until the network reactivates the account; its owners were mailed the reason.",
      }),
    ),
    viewingAs: Type.Optional(
      DescribedRef(
        ViewAs,
        "An operator's only: the member this browser views as (read-only), while the view lasts. The member's routes (/affiliate/*, /advertiser/*) then read as its owner and refuse every change (403 read_only_view); /operator/* and /session stay the operator's.",
      ),
    ),
  },
  { $id: 'Session', description: 'The signed-in user' },
);

export const SignIn = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false, ...Examples({ signIn: ['Sign in', { email: 'ana@example.com', password: 'correct horse battery' }] }) },
);
export type SignIn = Static<typeof SignIn>;

export const SetPassword = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 100, description: 'The token of the one-time link (sign-up or password reset)' }),
    password: Type.String({ minLength: 10, maxLength: 200, description: 'At least 10 characters' }),
  },
  { additionalProperties: false, ...Examples({ link: ['The token from the link, and a new password', { token: 'Jx3vQm8TzR1bK5wN0pLs7YdC2hFa9UeG4iOq6MnVt', password: 'correct horse battery' }] }) },
);
export type SetPassword = Static<typeof SetPassword>;

export const PasswordReset = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254, description: 'The address the person signs in with' }),
  },
  { additionalProperties: false, ...Examples({ forgot: ['Forgot the password', { email: 'ana@example.com' }] }) },
);
export type PasswordReset = Static<typeof PasswordReset>;

export const SessionChange = Type.Object(
  {
    language: Language,
  },
  { additionalProperties: false, ...Examples({ language: ['Portal and mail in Portuguese', { language: 'pt-BR' }] }) },
);
export type SessionChange = Static<typeof SessionChange>;

export const OpenSession = Type.Object(
  {
    id: Type.String({ description: 'What the session is named by (never its token)' }),
    device: Type.String({ description: 'The browser and system it was opened from, e.g. "Firefox on Linux"' }),
    country: Type.String({ description: 'ISO 3166 alpha-2 of the address it was opened from; ZZ when unknown' }),
    address: Type.Optional(Type.String({ description: 'The client address it was opened from; kept SESSION_ADDRESS_DAYS days, then absent' })),
    createdAt: Type.String({ format: 'date-time', description: 'When it was opened (the sign-in)' }),
    lastSeenAt: Type.String({ format: 'date-time', description: 'Its last use (written at most once a minute)' }),
    current: Type.Boolean({ description: 'True for the session making this request' }),
    viewedByNetwork: Type.Optional(
      Type.Literal(true, { description: "Addition: the network's support viewing your account, read-only (never named: it is the network's); ending it ends their view at once. Shown to every person of the account" }),
    ),
    reason: Type.Optional(Type.String({ description: 'With viewedByNetwork: why the network views your account, as its operator said' })),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'With viewedByNetwork: when the view ends by itself' })),
  },
  { $id: 'OpenSession', description: 'One of the signed-in person’s open sessions' },
);
