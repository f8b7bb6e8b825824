// What the routes called by members' own pages share: where a request came from, and how a script
// for those pages is served (the brand's tag, the affiliate's link script).
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../context.js';
import type { ServedScript } from '../../../lib/served-script.js';
import { errorResponses } from '../../responses.js';

/**
 * The page a request came from: the Origin header, else the Referer's origin, when the browser sent
 * either. A sandboxed frame (Shopify's custom pixels) sends Origin "null": its Referer names the page;
 * without one it stays a null origin, which no member's domains take.
 */
export function originOf(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin && origin !== 'null') return origin;
  const referer = request.headers.referer;
  if (!referer) return origin === 'null' ? 'null' : undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

const ScriptQuery = Type.Object({ v: Type.Optional(Type.String({ maxLength: 64, description: 'The script’s version, as its snippet names it' })) }, { additionalProperties: false });

/**
 * GET `path`: the script, the same for every member. With the current version in `v` it is kept a
 * day (immutable), so its snippet's URL changes with its content; without it, or with an older
 * one (a snippet pasted long ago), five minutes, so old snippets get the new script soon.
 */
export function scriptRoute(pages: App, path: string, script: ServedScript, doc: { tag: string; summary: string; description: string }): void {
  pages.get(
    path,
    {
      schema: {
        tags: [doc.tag],
        summary: doc.summary,
        description: `${doc.description} With the current v it is kept a day (immutable); without it, five minutes. Its integrity (sha384) is ${script.integrity}.`,
        querystring: ScriptQuery,
        produces: ['text/javascript'],
        response: { 200: Type.String({ description: 'The script' }), ...errorResponses(400, 500) },
      },
    },
    async (request, reply) => {
      const current = request.query.v === script.version;
      return reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', current ? 'public, max-age=86400, immutable' : 'public, max-age=300')
        .header('etag', `"${script.version}"`)
        .send(script.source);
    },
  );
}
