// Requests through the service's whole request listener (the redirect front, then Fastify),
// without a socket: what a client reaches. Fastify's own inject would skip the front. Every
// answer is checked against the OpenAPI document (see contract.ts).
import { inject, type InjectOptions, type Response } from 'light-my-request';
import type { Service } from '../../src/server.js';
import { contractChecker } from './contract.js';

export type Inject = (options: InjectOptions) => Promise<Response>;

export function injector(service: Service): Inject {
  const ready = service.app.ready();
  const check = contractChecker(service);
  return async (options) => {
    await ready;
    const response = await inject(service.handler, options);
    check(options.method ?? 'GET', String(options.url ?? options.path ?? '/'), response);
    return response;
  };
}
