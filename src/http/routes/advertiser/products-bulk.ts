// POST /advertiser/products/bulk: a brand's products as NDJSON, read line by line as the body
// streams in (never buffered whole), each line applied on its own with a result per line.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { HttpError } from '../../errors.js';
import { PRODUCT_LINES_EXAMPLE } from '../../../schemas/product.js';
import { Examples } from '../../../schemas/common.js';

export const NDJSON = 'application/x-ndjson';
const MAX_LINES = 10_000;
/** 10,000, grouped by hand: formatting it with Intl at registration would load locale data (ICU) into every start. */
const MAX_LINES_TEXT = String(MAX_LINES).replace(/\B(?=(\d{3})+$)/g, ',');
const MAX_BYTES = 10 * 1024 * 1024;

const LineResult = Type.Object({
  line: Type.Integer({ description: 'Line number, from 1' }),
  status: Type.Union([Type.Literal('inserted'), Type.Literal('updated'), Type.Literal('rejected')]),
  id: Type.Optional(Type.String({ description: 'The product id of the line' })),
  reason: Type.Optional(Type.String({ description: 'Why the line was refused' })),
});

/** The body's lines, stopping (and saying so) once more than MAX_BYTES have come. */
async function* linesOf(body: Readable, onOverflow: () => void): AsyncGenerator<string> {
  let bytes = 0;
  for await (const line of createInterface({ input: body, crlfDelay: Infinity })) {
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > MAX_BYTES) {
      onOverflow();
      return;
    }
    yield line;
  }
}

/**
 * The body as the OpenAPI document declares it: NDJSON text. Documentation only: a body schema on
 * the route would have Fastify validate the stream the route reads, so the route declares none.
 */
const NdjsonBody = Type.String({
  description: 'One product per line (JSON), each in the shape of PUT /advertiser/products/{id} with its id; lines separated by \\n',
  ...Examples({ lines: ['One product with a price, one with options', PRODUCT_LINES_EXAMPLE] }),
});

export function bulkProductsRoute(app: App, services: ServingServices): void {
  app.post(
    '/advertiser/products/bulk',
    {
      config: { swaggerTransform: ({ schema, url }) => ({ url, schema: { ...schema, consumes: [NDJSON], body: NdjsonBody } }) },
      schema: {
        tags: ['Advertiser'],
        summary: 'Create or replace many of your products (NDJSON)',
        description:
          `Content-Type ${NDJSON}: one product per line in the shape of PUT /advertiser/products/{id}, with its id (organizationId may be left out): at least id, name, url, available and price (or options). ` +
          'Each line is applied on its own as it arrives: a bad line (not JSON, invalid, another brand\'s organizationId) is reported with its number and reason and never stops the others. ' +
          `At most ${MAX_LINES_TEXT} lines and 10 MB per request: a body announced larger answers 413; past either limit the rest is not read, and the last result says where it stopped (truncated: true). Blank lines are skipped.`,
        security: [{ apiKey: [] }],
        response: {
          200: Type.Object({
            data: Type.Object({
              lines: Type.Integer({ description: 'Lines read' }),
              inserted: Type.Integer(),
              updated: Type.Integer(),
              rejected: Type.Integer(),
              truncated: Type.Boolean({ description: 'true when a limit stopped the reading: send the rest in another request' }),
              results: Type.Array(LineResult, { description: 'One per non-blank line read, in order' }),
            }),
          }),
        },
      },
    },
    async (request) => {
      if (!String(request.headers['content-type'] ?? '').startsWith(NDJSON)) {
        throw new HttpError(415, 'unsupported_media_type', `Send the products as NDJSON with content-type: ${NDJSON}, one product per line`);
      }
      if (Number(request.headers['content-length'] ?? 0) > MAX_BYTES) throw new HttpError(413, 'payload_too_large', 'Request body is too large (limit 10 MB per request): split the file');
      let overflow = false;
      const outcome = await services.imports.bulkProducts(request.brandId, linesOf(request.body as Readable, () => (overflow = true)), MAX_LINES);
      if (overflow) {
        outcome.truncated = true;
        outcome.rejected++;
        outcome.results.push({ line: outcome.lines + 1, status: 'rejected', reason: 'over the limit of 10 MB per request: this line and the ones after it were not read; send them in another request' });
      }
      return { data: outcome };
    },
  );
}
