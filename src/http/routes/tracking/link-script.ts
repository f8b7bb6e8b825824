// The affiliate's link script on its own site: GET /links.js, then, with the channel's link key,
// GET /links/domains (once per page) and POST /links/auto (once per link followed). No API key:
// the link key, public by design, good for these two routes alone and from the channel's sites
// alone. CORS answers those sites only (the routes set it themselves, once the key said which);
// the script sends its body as text/plain, so a browser asks no preflight. Limited per client
// address and, for links, per key.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, App } from '../../context.js';
import type { OpenScript } from '../../../domain/links/auto-links.js';
import { LINK_SCRIPT, TIMEOUT_MS } from '../../../domain/links/link-script.js';
import { AutoLinkInput, AutoLinkMade, LinkDomains, LinkDomainsQuery } from '../../../schemas/link-script.js';
import { tooManyRequests } from '../../errors.js';
import { errorResponses } from '../../responses.js';
import { originOf, scriptRoute } from './pages.js';

const TAG = 'Link script';
/** How long a page (and a CDN) may keep a channel's domain list. */
const DOMAINS_MAX_AGE_SECONDS = 600;

export function registerLinkScriptRoutes(pages: App, ctx: AppContext): void {
  const { autoLinks, autoLinkRequests } = ctx.services;

  const limited = async (waitMs: number, what: string) => {
    if (waitMs > 0) throw tooManyRequests('too_many_requests', waitMs, ({ seconds }) => `Too many ${what} a minute: try again in ${seconds} s (the link stays plain meanwhile)`);
  };
  /** The key's channel, asked from one of its sites: the answer may then be read by that site (CORS). */
  const opened = async (request: FastifyRequest, reply: FastifyReply, key: string): Promise<OpenScript> => {
    await limited(await autoLinkRequests.address.failed(request.ip), 'requests of the link script from this address');
    const script = await autoLinks.open(key, originOf(request));
    void reply.header('access-control-allow-origin', script.origin).header('vary', 'Origin');
    return script;
  };

  scriptRoute(pages, '/links.js', LINK_SCRIPT, {
    tag: TAG,
    summary: 'The link script',
    description: `One script for every affiliate, loaded deferred by the snippet of GET /affiliate/link-script/{channelId}, which names the channel's link key (data-key). It asks once per page which domains are the brands the channel may promote (GET /links/domains) and marks the links to them rel="sponsored"; when a visitor follows one (a click; a mouse or touch press starts asking early), it asks for the channel's short link to that page (POST /links/auto) and sends the visitor through it, or to the plain link when the network did not answer within ${TIMEOUT_MS} ms. Every other link is left alone. At most 3 KB gzipped.`,
  });

  pages.get(
    '/links/domains',
    {
      schema: {
        tags: [TAG],
        summary: 'The domains of the brands a link key’s channel may promote',
        description: `Asked by the link script once per page, from one of the sites allowed for the key (the Origin header): another site, or none, answers 403 site_not_allowed; an unknown or replaced key 403 invalid_link_key; a suspended affiliate's 403 account_suspended. A brand may be promoted when the affiliate may see it (public, or private and approving it; not suspended), it is active and it accepts the channel's kind. CORS answers the key's sites only. Kept ${DOMAINS_MAX_AGE_SECONDS} s by the page and shared caches (Vary: Origin). At most AUTO_LINK_LIMIT_PER_ADDRESS requests of the script per client address a minute (429).`,
        querystring: LinkDomainsQuery,
        response: { 200: LinkDomains, ...errorResponses(400, 403, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      const script = await opened(request, reply, request.query.key);
      const domains = await autoLinks.domains(script);
      return reply.header('cache-control', `public, max-age=${DOMAINS_MAX_AGE_SECONDS}`).send({ data: { domains } });
    },
  );

  pages.post(
    '/links/auto',
    {
      schema: {
        tags: [TAG],
        summary: 'The short link for a link a visitor followed',
        description:
          'Sent by the link script, as JSON or as text/plain holding JSON (no preflight), from one of the sites allowed for the key (the Origin header, which page must be on): another site, or none, answers 403 site_not_allowed; an unknown or replaced key 403 invalid_link_key; a suspended affiliate’s 403 account_suspended. to must be a page of a brand the key’s channel may promote (as GET /links/domains lists them), else 422 brand_not_promotable: the script then leaves the link plain. The answer is the channel’s Custom link to exactly that page (an http page becomes its https address), made the first time and the same one after (idempotent per affiliate, channel and page), listed with the affiliate’s links and counted as any click through the redirect. ' +
          'CORS answers the key’s sites only. At most AUTO_LINK_LIMIT_PER_ADDRESS requests of the script per client address and AUTO_LINK_LIMIT_PER_KEY links per key a minute (429 with Retry-After).',
        body: AutoLinkInput,
        response: { 200: AutoLinkMade, ...errorResponses(400, 403, 404, 422, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      const { key, page, to } = request.body;
      const script = await opened(request, reply, key);
      await limited(await autoLinkRequests.key.failed(key), 'links asked with this key');
      return reply.header('cache-control', 'no-store').send({ data: await autoLinks.make(script, { page, to }) });
    },
  );
}
