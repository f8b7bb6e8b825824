// Requests through the service's whole request listener (the redirect front, then Fastify),
// without a socket: what a client reaches. Fastify's own inject would skip the front.
import { inject, type InjectOptions, type Response } from 'light-my-request';
import type { Service } from '../../src/server.js';

export type Inject = (options: InjectOptions) => Promise<Response>;

export function injector(service: Service): Inject {
  const ready = service.app.ready();
  return async (options) => {
    await ready;
    return inject(service.handler, options);
  };
}
