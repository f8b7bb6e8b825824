// Where an outbound request may go, and nowhere else: https only, and never to the network's own
// machines (loopback, private, link-local and metadata addresses), unless the operator allows
// local targets (WEBHOOK_ALLOW_LOCAL_TARGETS, for tests and development). The host is resolved
// here, every address it resolves to is checked, and the connection is made to the address that
// was checked (a lookup hook on the request), so a DNS answer that changes between the check and
// the connection (rebinding) cannot lead inside. Webhook deliveries and feed fetches both go
// through it.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { reservedAddress } from '../lib/addresses.js';

/** Resolves a host name to its addresses (tests inject one; the default asks the system resolver). */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface TargetOptions {
  /** Allow http and addresses of the local machine and networks. */
  allowLocal: boolean;
  resolve?: Resolver;
}

const systemResolver: Resolver = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** A URL that may not be reached, and why. */
export class RefusedTarget extends Error {}

/** The checked address to connect to for `url`: the host's first address, all of them checked. */
export async function checkedAddress(url: URL, options: TargetOptions): Promise<string> {
  const { allowLocal, resolve = systemResolver } = options;
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) throw new RefusedTarget(`refused: ${url.protocol} URLs are not allowed, only https`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolve(host).catch((error: Error) => Promise.reject(new RefusedTarget(`cannot resolve ${host}: ${error.message}`)));
  if (addresses.length === 0) throw new RefusedTarget(`cannot resolve ${host}: no address`);
  if (!allowLocal) {
    for (const address of addresses) {
      const reason = reservedAddress(address);
      if (reason) throw new RefusedTarget(`refused: ${host} resolves to ${address}, a ${reason} address`);
    }
  }
  return addresses[0]!;
}

/**
 * A request to `url` whose connection goes to `address` (checked above) whatever the request asks;
 * redirects are never followed (Node's client does not follow them).
 */
export function pinnedRequest(url: URL, address: string, options: RequestOptions, onResponse: (response: IncomingMessage) => void): ClientRequest {
  const family = isIP(address);
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return send(url, { ...options, lookup: pinned }, onResponse);
}
