// The client address behind trusted proxies, decided the same way for Fastify's routes and for
// the redirect front (which answers before Fastify sees the request).
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config.js';

export type TrustProxy = (address: string, hop: number) => boolean;

/** TRUST_PROXY as a function: nothing, everything, the nearest N hops, or a list of addresses/CIDRs. */
export function trustFunction(setting: Config['trustProxy']): TrustProxy {
  if (setting === false) return () => false;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting.split(',').map((part) => part.trim()));
}

/** The farthest address the trusted proxies vouch for (the socket address when none is trusted). */
export function clientAddress(request: IncomingMessage, trust: TrustProxy): string {
  return proxyAddr(request, trust);
}
