// The portal talks to the service through the same public API as any client, with the typed
// client generated from the OpenAPI document. The session cookie goes along by itself; requests
// that change something carry the session's CSRF token.
import { createAffnetClient, type ApiError } from '../../packages/client/index.js';
import { ApiFailure } from './api-failure.js';

export { ApiFailure };

let csrfToken = '';
export const setCsrfToken = (token: string): void => {
  csrfToken = token;
};

export const api = createAffnetClient({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && csrfToken) request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
});


/** The data of a success (undefined for a 204); throws ApiFailure otherwise (TanStack Query shows it). */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw new ApiFailure(result.response.status, result.error as ApiError | undefined);
  return result.data as T;
}
