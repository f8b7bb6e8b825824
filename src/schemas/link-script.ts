// The link script: a site channel's page of it (the link key, the snippet, the sites, the links it
// made), and what the script sends and is answered (GET /links/domains, POST /links/auto).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Examples, Uuid } from './common.js';

const LinkKey = Type.String({ minLength: 1, maxLength: 100, description: 'The channel’s link key (aflnk_…): public by design (it sits in your pages), good for the link script only, never for the API' });

export const AutoLink = Type.Object(
  {
    shortUrl: Type.String({ description: 'The short link the script sends visitors through' }),
    urlCode: Type.String(),
    originalUrl: Type.String({ description: 'The brand’s page the link lands on: the address the link on your page pointed to' }),
    organizationId: Uuid,
    brandName: Type.Optional(Type.String()),
    count: Type.Integer({ description: 'Human clicks counted so far, as for any of your links' }),
    active: Type.Boolean({ description: 'Inactive links answer 404 and count nothing' }),
    page: Type.String({ description: 'The page of your site the link was first followed from' }),
    createdAt: { ...DateTime, description: 'When the script made the link (or first asked for a link you had made yourself)' },
  },
  { $id: 'AutoLink', description: 'A link the link script made: an ordinary Custom link of the channel, also listed by GET /affiliate/shortener/urls?type=Custom' },
);

export const LinkScript = Type.Object(
  {
    channel: Type.Object({ id: Type.String(), name: Type.String(), site: Type.Optional(Type.String({ description: 'The channel’s address; absent until given (PATCH /affiliate/channels/{id} with site)' })) }),
    domain: Type.Optional(Type.String({ description: 'The domain every site must be on: the channel’s address’s host without www. (a site may be a subdomain of it); absent while the channel has no address' })),
    key: Type.Optional({ ...LinkKey, description: 'The channel’s link key; absent until made (POST /affiliate/link-script/{channelId}/key)' }),
    scriptUrl: Type.String({ description: 'The script’s address, versioned: kept a day by browsers and CDNs' }),
    snippet: Type.Optional(Type.String({ description: 'What to paste once in every page of your site (the template’s head or the end of its body); absent until there is a key' })),
    sites: Type.Array(Type.String(), { description: 'The sites (origins, e.g. https://www.yoursite.com) the script works on; a page elsewhere gets no links' }),
    links: Type.Array(Type.Ref(AutoLink), { description: 'The latest links the script made, newest first (20 at most)' }),
  },
  { $id: 'LinkScript', description: 'A site channel’s link script: the snippet that turns your plain links to member brands into your tracked links, the sites it works on, and what it made' },
);
export type LinkScript = Static<typeof LinkScript>;

export const LinkScriptSites = Type.Object(
  {
    sites: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
      maxItems: 20,
      description:
        'Every site the script may work on (the list replaces the one there was; empty: none): written as you like (www.yoursite.com, https://blog.yoursite.com/any-page), kept as its origin. Each must be on the channel’s domain (its address’s host or a subdomain of it): another answers 422 site_outside_channel naming it',
    }),
  },
  { additionalProperties: false, ...Examples({ sites: ['Your site, with and without www', { sites: ['https://www.travelblog.example', 'travelblog.example'] }] }) },
);

export const LinkDomainsQuery = Type.Object({ key: LinkKey }, { additionalProperties: false });

export const LinkDomains = Type.Object({
  data: Type.Object({
    domains: Type.Array(Type.String(), { description: 'Domains (lowercase, without www.) of the brands the key’s channel may promote; a link to one of them or a subdomain is a brand’s link' }),
  }),
});

export const AutoLinkInput = Type.Object(
  {
    key: LinkKey,
    page: Type.String({ minLength: 1, maxLength: 2048, description: 'The page the link is on (location.href): on the site the request comes from' }),
    to: Type.String({ minLength: 1, maxLength: 2048, description: 'Where the link points (its href): a page of a brand the channel may promote' }),
  },
  {
    additionalProperties: false,
    ...Examples({ link: ['A link the visitor followed', { key: 'aflnk_3kT9mQ2vX8bN4cR7yL1wZ5hJ', page: 'https://www.travelblog.example/best-sneakers', to: 'https://www.acme.com/store/p/red-sneakers?size=42' }] }),
  },
);

export const AutoLinkMade = Type.Object({
  data: Type.Object({
    shortUrl: Type.String({ description: 'Send the visitor here: it lands on `to`' }),
    urlCode: Type.String(),
    organizationId: Uuid,
    brandName: Type.String(),
  }),
});
