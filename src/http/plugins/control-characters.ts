// One rule at the boundary for every string an API route (or the sign-in) accepts: path parameters and query
// parameters may hold no control character at all, bodies none but tab, line feed and carriage
// return. Checked before validation, so the answer names the field whatever else is wrong.
import type { FastifyRequest } from 'fastify';
import { controlCharacterMessage, findControlCharacter, MAX_DEPTH, nestsDeeperThan } from '../../lib/control-characters.js';
import { HttpError } from '../errors.js';
import { takesClientInput } from '../route-rules.js';
import type { App } from '../context.js';

export function refuseControlCharacters(app: App): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (!takesClientInput(request.routeOptions.url ?? '')) return;
    const parts = [
      ['invalid_params', request.params, false],
      ['invalid_query', request.query, false],
      ['invalid_body', request.body, true],
    ] as const;
    for (const [code, value, allowWhitespace] of parts) {
      // A body that is a stream (an NDJSON upload) is checked line by line where it is read.
      if (value === null || typeof value !== 'object' || typeof (value as { pipe?: unknown }).pipe === 'function') continue;
      // Checked first and without recursion: describing or walking a body nested thousands deep
      // would overflow the stack.
      if (nestsDeeperThan(value, MAX_DEPTH)) throw new HttpError(400, 'invalid_json', `Request body nests objects or arrays more than ${MAX_DEPTH} levels deep`);
      const found = findControlCharacter(value, { allowWhitespace });
      if (found) throw new HttpError(400, code, controlCharacterMessage(found));
    }
  });
}
