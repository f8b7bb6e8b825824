import { Type, type Static } from '@sinclair/typebox';
import { AFFILIATE_SCOPES, BRAND_SCOPES } from '../domain/access/scopes.js';
import { User } from './session.js';
import { Examples } from './common.js';

export const ApiKey = Type.Object(
  {
    id: Type.String({ description: 'The key id (key_…): revoke it by this id' }),
    prefix: Type.String({ description: 'The first characters of the key, to recognise it; the key itself is shown only when created' }),
    name: Type.String(),
    scopes: Type.Array(Type.String()),
    rateLimit: Type.Integer({ description: 'Requests per minute' }),
    createdAt: Type.String({ format: 'date-time' }),
    revokedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it stopped working; absent while it works' })),
  },
  { $id: 'ApiKey', description: 'An API key of your account' },
);

const scopesOf = (side: 'affiliate' | 'brand') => (side === 'affiliate' ? AFFILIATE_SCOPES : BRAND_SCOPES);

export const ApiKeyInput = (side: 'affiliate' | 'brand') =>
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100, description: 'What the key is for (e.g. "shop integration")' }),
      scopes: Type.Optional(
        Type.Array(Type.Union(scopesOf(side).map((s) => Type.Literal(s))), {
          minItems: 1,
          uniqueItems: true,
          description: `What the key may do; every scope of ${side === 'affiliate' ? 'an affiliate' : 'a brand'} when left out`,
        }),
      ),
    },
    { additionalProperties: false, ...Examples({ key: ['A key for an integration, with every scope of your side', { name: 'shop integration' }] }) },
  );
export type ApiKeyInput = Static<ReturnType<typeof ApiKeyInput>>;

export const TeamMemberInput = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    role: Type.Optional(Type.Union([Type.Literal('owner'), Type.Literal('member')], { default: 'member', description: 'owner: manages the team and API keys as well' })),
  },
  { additionalProperties: false, ...Examples({ member: ['A member of your team', { email: 'sam@example.com', role: 'member' }] }) },
);
export type TeamMemberInput = Static<typeof TeamMemberInput>;

export const PasswordLink = Type.String({ format: 'uri', description: 'A one-time link where the user sets a password (a week for a new user, an hour for a reset): hand it over yourself' });

export const Invitation = Type.Object({ user: Type.Ref(User), link: PasswordLink });
