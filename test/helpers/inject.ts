// Requests through the service's whole request listener (the redirect front, then Fastify),
// without a socket: what a client reaches. Fastify's own inject would skip the front. Every
// answer is checked against the OpenAPI document (see contract.ts).
import { inject, type InjectOptions, type Response } from 'light-my-request';
import type { Service } from '../../src/server.js';
import { contractChecker } from './contract.js';

/** The request's URL as text (light-my-request also takes URL objects). */
export const urlOf = (options: InjectOptions): string => {
  const url = options.url ?? options.path ?? '/';
  return typeof url === 'string' ? url : url.pathname;
};

export type Inject = (options: InjectOptions) => Promise<Response>;

export function injector(service: Service): Inject {
  const ready = service.app.ready();
  const check = contractChecker(service);
  return async (options) => {
    await ready;
    const response = await inject(service.handler, options);
    check(options.method ?? 'GET', urlOf(options), response);
    return response;
  };
}
