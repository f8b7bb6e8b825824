// A site channel's link script: the snippet with its link key, the sites it works on, a new key.
import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { LinkScript, LinkScriptSites } from '../../../schemas/link-script.js';
import { errorResponses } from '../../responses.js';

const TAGS = ['Short links'];
const Params = Type.Object({ channelId: Type.String({ minLength: 1, maxLength: 64, description: 'One of your site channels (GET /affiliate/channels)' }) });
const Answer = Type.Object({ data: Type.Ref(LinkScript) });
const CHANNEL_REFUSALS = 'Another affiliate’s channel, or a removed one, answers 404 channel_not_found; a channel of another kind than site answers 409 channel_not_a_site (the script runs on a site).';

export function getLinkScriptRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/link-script/:channelId',
    {
      schema: {
        tags: TAGS,
        summary: 'Your links made automatically: the snippet for a site channel',
        description:
          'Paste the snippet once in every page of your site: it loads GET /links.js (deferred, 3 KB at most gzipped, kept a day) with the channel’s link key. On the sites listed in sites, a link in your pages to a brand you may promote on the channel (public, or private and approving you; active; accepting site channels) becomes your tracked link when a visitor follows it: the channel’s Custom link to exactly that page, made once (the same page gives the same short link), listed with your links and counted as any click; the link is marked rel="sponsored" (as search engines ask of paid links). Every other link stays as it is, and a click the network does not answer within 1.5 s goes to the plain link. links shows what the script made lately. ' +
          CHANNEL_REFUSALS,
        security: [{ apiKey: [] }],
        params: Params,
        response: { 200: Answer, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({ data: await services.linkScripts.view(request.affiliateId, request.params.channelId) }),
  );
}

export function putLinkScriptSitesRoute(app: App, services: ServingServices): void {
  app.put(
    '/affiliate/link-script/:channelId',
    {
      schema: {
        tags: TAGS,
        summary: 'Set the sites your link script works on',
        description:
          'The sites (origins) the channel’s script may work on, replacing the list there was. Each must be on the channel’s domain (its address, given with PATCH /affiliate/channels/{id}, or a subdomain of it): another answers 422 site_outside_channel naming the site and the domain; a channel without an address answers 409 channel_site_missing; an address that is no site’s answers 400 invalid_site. A page on another site gets no links (its requests answer 403 site_not_allowed). ' +
          CHANNEL_REFUSALS,
        security: [{ apiKey: [] }],
        params: Params,
        body: LinkScriptSites,
        response: { 200: Answer, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => ({ data: await services.linkScripts.setSites(request.affiliateId, request.params.channelId, request.body.sites) }),
  );
}

export function replaceLinkKeyRoute(app: App, services: ServingServices): void {
  app.post(
    '/affiliate/link-script/:channelId/key',
    {
      schema: {
        tags: TAGS,
        summary: 'Make a new link key for a site channel',
        description:
          'The key the snippet carries: public by design (it sits in your pages), good for the link script only (GET /links/domains, POST /links/auto) and from the channel’s sites only; never accepted as an API key. The first call makes the channel’s key; a later one replaces it, and the key it had stops working at once (pages with the old snippet keep their plain links): paste the new snippet where the old one is. ' +
          CHANNEL_REFUSALS,
        security: [{ apiKey: [] }],
        params: Params,
        response: { 201: Answer, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await services.linkScripts.replaceKey(request.affiliateId, request.params.channelId) }),
  );
}
