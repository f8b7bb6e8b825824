// Assembles the HTTP service: shared schemas, error handling, documentation, the redirect hot
// path, health checks and the API (authenticated, rate-limited, scoped), each registered by a
// function of its own below.
import { createServer, type RequestListener, type Server } from 'node:http';
import Fastify, { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions, type RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import { registerPortal } from './portal.js';
import { registerReferencePages } from './reference-pages.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Feed, FeedRun } from '../schemas/feed.js';
import { AffiliateGroup } from '../schemas/affiliate-group.js';
import { BrandCommissionRules, CommissionPreview, CommissionRule, CommissionRules, OrderCommission } from '../schemas/commission-rules.js';
import { ErrorBody, Pagination } from '../schemas/common.js';
import { AffiliateChannel, AvailableChannel, Channel, ChannelRef } from '../schemas/channel.js';
import { Brand, BrandProfile, Commission } from '../schemas/brand.js';
import { NetworkTerms, NetworkTermsChanged } from '../schemas/network-terms.js';
import { Product, ProductOption } from '../schemas/product.js';
import { BrandCampaign, Campaign } from '../schemas/campaign.js';
import { AffiliateCoupon, BrandCoupon } from '../schemas/coupon.js';
import { ShortUrl } from '../schemas/short-url.js';
import { Order, OrderItem } from '../schemas/order.js';
import { Conversion, ConversionEvent } from '../schemas/conversion.js';
import { Reconciliation, ReconciliationLine } from '../schemas/reconciliation.js';
import { Payout } from '../schemas/payout.js';
import { Statement, StatementLine } from '../schemas/statement.js';
import { AffiliateStatement, AffiliateStatementMovement } from '../schemas/affiliate-statement.js';
import { Claim } from '../schemas/claim.js';
import { Application, AuditEntry, HeldOrder, MemberDetail, MemberSummary } from '../schemas/operator.js';
import { NetworkFigures } from '../schemas/figures.js';
import { DeliveryAttempt, WebhookEndpoint } from '../schemas/webhook.js';
import { Postback, PostbackDelivery } from '../schemas/postback.js';
import { OpenSession, Session, User } from '../schemas/session.js';
import { ApiKey } from '../schemas/account.js';
import { ViewAs } from '../schemas/view-as.js';
import { TagInstall, TagReport, TagTest } from '../schemas/tag.js';
import { AutoLink, LinkScript } from '../schemas/link-script.js';
import { answerClientError, BODY_LIMIT_BYTES, errorBody, handleError, HttpError } from './errors.js';
import { lazySerializers, lazyValidators } from './lazy-compilers.js';
import { validatorCompiler } from './validator.js';
import type { App, AppContext } from './context.js';
import { keyFromHeader, registerAuthentication } from './plugins/authenticate.js';
import { feedKeyFrom } from './feed-key.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { splitCommaLists } from './plugins/comma-lists.js';
import { refuseControlCharacters } from './plugins/control-characters.js';
import { refuseUnreadLargeBodies } from './plugins/body-limit.js';
import { registerRedirect } from './routes/redirect.js';
import { redirectFront } from './redirect-front.js';
import { trustFunction } from './client-address.js';
import { registerHealth } from './routes/health.js';
import { registerSessionRoutes } from './routes/session/index.js';
import { registerJoiningRoutes } from './routes/joining/index.js';
import { registerTrackingRoutes } from './routes/tracking/index.js';
import cookie from '@fastify/cookie';
import { affiliateRoutes } from './routes/affiliate/index.js';
import { advertiserRoutes } from './routes/advertiser/index.js';
import { operatorRoutes } from './routes/operator/index.js';
import { registerViewAsRoutes } from './routes/operator/view-as.js';
import { registerPostback } from './routes/advertiser/postback.js';
import { NDJSON } from './routes/advertiser/products-bulk.js';
import { FEED_UPLOAD_TYPES } from './routes/advertiser/feeds.js';
import { API_DESCRIPTION } from './api-description.js';
import { polishDocument } from './openapi-document.js';
import { webhookDescriptions } from './webhook-description.js';
import { applyRouteRules } from './route-rules.js';
import { logsRequests } from './logging.js';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
import { ConnectionDrain, type DrainOptions, type DrainResult } from './drain.js';

const SHARED_SCHEMAS = [AffiliateGroup, CommissionRule, CommissionRules, CommissionPreview, BrandCommissionRules, OrderCommission, ErrorBody, Pagination, AvailableChannel, AffiliateChannel, Channel, ChannelRef, Commission, Brand, BrandProfile, ProductOption, Product, Campaign, ShortUrl, BrandCampaign, BrandCoupon, AffiliateCoupon, OrderItem, Order, Conversion, ConversionEvent, Payout, Statement, StatementLine, AffiliateStatementMovement, AffiliateStatement, Claim, Application, AuditEntry, MemberSummary, NetworkTerms, NetworkTermsChanged, MemberDetail, NetworkFigures, HeldOrder, WebhookEndpoint, DeliveryAttempt, User, Session, OpenSession, ApiKey, ViewAs, Feed, FeedRun, TagReport, TagInstall, TagTest, AutoLink, LinkScript, ReconciliationLine, Reconciliation, Postback, PostbackDelivery];

/** A route as registered, after the route rules were applied; what route-walking tests enumerate. */
export interface RegisteredRoute {
  method: string;
  url: string;
  options: RouteOptions;
}

export interface BuiltApp {
  app: App;
  routes: RegisteredRoute[];
  /** What the HTTP server runs: the redirect front, then Fastify for everything else. */
  handler: RequestListener;
  /** Stops the listening server without dropping a request (see drain.ts); nothing when not listening. */
  drain(options: DrainOptions): Promise<DrainResult>;
}

export async function buildApp(ctx: AppContext, options: { logger?: FastifyServerOptions['logger'] } = {}): Promise<BuiltApp> {
  // First path segments of the service's own routes: never read as short-link codes.
  const reserved = new Set<string>();
  const routes: RegisteredRoute[] = [];
  let handler: RequestListener | undefined;
  const connections = new ConnectionDrain();
  let server: Server | undefined;
  const app = Fastify({
    serverFactory: (fastifyHandler) => {
      handler = connections.listener(redirectFront(ctx, reserved, fastifyHandler));
      // The service builds its own server, so Fastify's timeouts do not apply: set them here, and
      // look for late clients often enough that a timeout is kept to within half of itself.
      const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = ctx.config;
      server = createServer(
        { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(30_000, Math.ceil(headersTimeoutMs / 2)) },
        handler,
      );
      server.keepAliveTimeout = keepAliveTimeoutMs;
      return server.on('clientError', answerClientError);
    },
    logger: options.logger ?? false,
    // Per-request logging halves throughput: debug level only; errors are always logged.
    logController: new LogController({ disableRequestLogging: !logsRequests(ctx.config.logLevel), requestIdLogLabel: 'requestId' }),
    genReqId: requestIdFor(trustFunction(ctx.config.trustProxy)),
    bodyLimit: BODY_LIMIT_BYTES,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    // The client address (repeat-click detection) comes from X-Forwarded-For only through proxies
    // the operator trusts (TRUST_PROXY); otherwise a client could claim any address.
    trustProxy: trustFunction(ctx.config.trustProxy),
    // Prototype-poisoning keys are dropped from JSON bodies (valid JSON, so not a syntax error).
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    // Ids and codes up to 200 characters reach their routes (and their own validation).
    routerOptions: { maxParamLength: 500 },
    // Router-level failures (malformed percent-encoding, overlong paths) get the same error body.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      void reply.header(REQUEST_ID_HEADER, request.id);
      const body = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? errorBody(414, 'uri_too_long', 'Request path is too long')
        : errorBody(400, 'invalid_url', 'Request path is malformed: check its percent-encoding');
      void reply.status(body.statusCode).send(body);
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as App;

  app.addHook('onRoute', (route) => {
    const first = route.url.split('/')[1] ?? '';
    if (!first.startsWith(':')) reserved.add(first);
    applyRouteRules(route);
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, options: route });
  });
  registerRequestHandling(app, ctx);
  await registerSecurityHeaders(app, { publicUrl: ctx.config.publicUrl, corsOrigins: ctx.config.corsOrigins });
  await registerDocumentation(app, ctx.config.publicUrl);
  registerReferencePages(app, { publicUrl: ctx.config.publicUrl, corsOrigins: ctx.config.corsOrigins, wordmark: WORDMARK });
  await app.register(cookie);
  registerHealth(app, ctx.services);
  registerSessionRoutes(app, ctx);
  registerJoiningRoutes(app, ctx);
  await registerTrackingRoutes(app, ctx);
  registerPortal(app);
  registerRedirect(app, ctx.services, ctx.metrics);
  await registerAffiliateApi(app, ctx);
  await registerAdvertiserApi(app, ctx);
  await registerOperatorApi(app, ctx);
  await registerPostbackApi(app, ctx);
  return { app, routes, handler: handler!, drain: async (drainOptions) => (server ? connections.drain(server, drainOptions) : { forced: 0 }) };
}

/** Shared schemas, validation, the error shape for every failure and for unknown routes. */
function registerRequestHandling(app: App, ctx: AppContext): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    ctx.metrics.request(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  app.setValidatorCompiler(lazyValidators(validatorCompiler()));
  // Bodies are JSON only; anything else answers 415 instead of reaching validation as a string.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler(handleError);
  refuseUnreadLargeBodies(app);
  refuseControlCharacters(app);
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(errorBody(404, 'route_not_found', `No route ${request.method} ${request.url.split('?')[0]}; see /docs for the API reference`)),
  );
}

/** The OpenAPI document at /openapi.json (the interactive reference at /docs reads it: reference-pages.ts). */
async function registerDocumentation(app: App, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Affiliate Network API', version: '1.0.0', description: API_DESCRIPTION },
      servers: [{ url: publicUrl }],
      webhooks: webhookDescriptions(),
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          session: { type: 'apiKey', in: 'cookie', name: 'affnet_session', description: 'The portal\'s session (POST /session); requests that change something also send the x-csrf-token header' },
        },
      },
      tags: [
        { name: 'Brands' },
        { name: 'Products' },
        { name: 'Campaigns' },
        { name: 'Short links' },
        { name: 'Channels', description: 'Where an affiliate publishes (a site, a profile, a group): links are made per channel and orders name theirs. Scopes channels:read, channels:write.' },
        { name: 'Redirect', description: 'What visitors open: a short link redirects to its destination with a click id. No API key.' },
        { name: 'Orders' },
        { name: 'Advertiser', description: 'For brands: report conversions, read them back with their history, correct and settle them. Brand keys only (scopes conversions:write, conversions:read).' },
        { name: 'Webhooks', description: 'Events pushed to your receivers as they happen, signed; for affiliates under /affiliate/webhooks, for brands under /advertiser/webhooks (scopes webhooks:read, webhooks:write).' },
        {
          name: 'Postbacks',
          description:
            'For affiliates: your trackers’ postback URLs (Voluum, RedTrack, Binom, Keitaro…), requested with GET as conversions are recorded, approved, canceled and paid, the click’s ids filled into their macros (scopes webhooks:read, webhooks:write).',
        },
        { name: 'Session', description: 'For the portal: sign in with an e-mail and password (and a second factor for people who have one: an authenticator app, a recovery code or a passkey), or with a passkey alone; the session cookie is then accepted by every API route (same scopes by role), with the x-csrf-token header on requests that change something. A member of a team that requires a second factor and has none is answered 403 second_factor_required by the API routes until they set one up.' },
        { name: 'Joining', description: 'Without a key: affiliates sign up, brands apply, and either confirms its address with the link mailed to it; the network then decides and mails the person. Limited per address given and per client address.' },
        { name: 'Account', description: 'Your team and API keys, managed by a signed-in owner (session cookie only: no API key may manage keys or people).' },
        { name: 'Service' },
      ],
    },
    transformObject: (document) => ('openapiObject' in document ? polishDocument(document.openapiObject) : document.swaggerObject),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** /affiliate/*: affiliate keys, their scopes and rate limit. */
async function registerAffiliateApi(app: App, ctx: AppContext): Promise<void> {
  await app.register(async (affiliate) => {
    const scoped = affiliate as unknown as App;
    // A product feed's URL may carry the key (read-only keys only, checked by the feed's route).
    await registerAuthentication(scoped, ctx, { owner: 'affiliate', keyFrom: (request) => keyFromHeader(request) ?? feedKeyFrom(request) });
    splitCommaLists(scoped);
    for (const route of affiliateRoutes) route(scoped, ctx.services);
  });
}

/** /advertiser/*: brand keys. */
async function registerAdvertiserApi(app: App, ctx: AppContext): Promise<void> {
  await app.register(async (advertiser) => {
    const scoped = advertiser as unknown as App;
    await registerAuthentication(scoped, ctx, { owner: 'brand' });
    splitCommaLists(scoped);
    // NDJSON uploads reach their route as the stream itself, read line by line (never buffered).
    scoped.addContentTypeParser(NDJSON, (_request, payload, done) => done(null, payload));
    // So do uploaded feeds, read by their parser as they come, and a shop's order export (text/csv).
    scoped.addContentTypeParser(FEED_UPLOAD_TYPES, (_request, payload, done) => done(null, payload));
    for (const route of advertiserRoutes) route(scoped, ctx.services);
  });
}

/** /operator/*: the network's operators, signed in to the portal (no key reaches these routes). */
async function registerOperatorApi(app: App, ctx: AppContext): Promise<void> {
  await app.register(async (operator) => {
    const scoped = operator as unknown as App;
    await registerAuthentication(scoped, ctx, { owner: 'operator' });
    splitCommaLists(scoped);
    for (const route of operatorRoutes) route(scoped, ctx.services);
    registerViewAsRoutes(scoped, ctx);
  });
}

/** GET /postback: the brand's postback token (or, discouraged, its API key) in the query. */
async function registerPostbackApi(app: App, ctx: AppContext): Promise<void> {
  await app.register(async (postback) => {
    const scoped = postback as unknown as App;
    const token = (request: FastifyRequest): string | undefined => {
      const value = (request.query as { token?: string | string[] }).token;
      if (Array.isArray(value)) throw new HttpError(400, 'invalid_query', `token must be given once (got ${value.length} values)`);
      return value;
    };
    await registerAuthentication(scoped, ctx, {
      owner: 'brand',
      // The brand's postback token first; its API key (in token or x-api-key) still works here.
      postbackTokenFrom: token,
      keyFrom: (request) => token(request) || keyFromHeader(request),
      missingKeyMessage: 'Postback token is required: pass your brand\'s postback token as the token query parameter',
    });
    registerPostback(scoped, ctx.services);
  });
}

/** "affnet · API reference" in white, for the reference's dark header bar. */
const WORDMARK = `<svg xmlns="http://www.w3.org/2000/svg" width="260" height="40" viewBox="0 0 260 40"><text x="0" y="28" font-family="system-ui, sans-serif" font-size="26" font-weight="700" fill="#ffffff">affnet</text><text x="92" y="28" font-family="system-ui, sans-serif" font-size="18" fill="#e5e7eb">API reference · portal</text></svg>`;
