// Sends webhook requests where they may go, and nowhere else: https only, and never to the
// network's own machines (loopback, private, link-local and metadata addresses), unless the
// operator allows local targets (WEBHOOK_ALLOW_LOCAL_TARGETS, for tests and development). The
// host is resolved here, every address it resolves to is checked, and the connection is made to
// the address that was checked (a lookup hook on the request), so a DNS answer that changes
// between the check and the connection (rebinding) cannot lead inside. Redirects are not followed;
// a request gives up after the timeout; at most maxResponseBytes of an answer are read.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { reservedAddress } from '../lib/addresses.js';
import type { WebhookRequest, WebhookResponse, WebhookTransport } from '../domain/webhooks/transport.js';

/** Resolves a host name to its addresses (tests inject one; the default asks the system resolver). */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface TransportOptions {
  /** Allow http and addresses of the local machine and networks. */
  allowLocal: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  resolve?: Resolver;
}

const systemResolver: Resolver = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

class Refused extends Error {}

export function webhookTransport(options: TransportOptions): WebhookTransport {
  const { allowLocal, timeoutMs = 10_000, maxResponseBytes = 64 * 1024, resolve = systemResolver } = options;

  /** The address to connect to: the host's first address, all of them checked. */
  async function destination(url: URL): Promise<string> {
    if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) throw new Refused(`refused: ${url.protocol} URLs are not allowed, only https`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : await resolve(host).catch((error: Error) => Promise.reject(new Refused(`cannot resolve ${host}: ${error.message}`)));
    if (addresses.length === 0) throw new Refused(`cannot resolve ${host}: no address`);
    if (!allowLocal) {
      for (const address of addresses) {
        const reason = reservedAddress(address);
        if (reason) throw new Refused(`refused: ${host} resolves to ${address}, a ${reason} address`);
      }
    }
    return addresses[0]!;
  }

  return {
    async send(request: WebhookRequest): Promise<WebhookResponse> {
      const started = performance.now();
      const took = () => Math.round(performance.now() - started);
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return { error: 'refused: not a valid URL', durationMs: took() };
      }
      let address: string;
      try {
        address = await destination(url);
      } catch (error) {
        return { error: (error as Error).message, durationMs: took() };
      }
      const family = isIP(address);
      // Whatever the request asks, the connection goes to the address checked above.
      const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
        if (lookupOptions.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      };
      return new Promise<WebhookResponse>((done) => {
        const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
        const outgoing = send(url, { method: 'POST', headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) }, lookup: pinned, timeout: timeoutMs }, (response: IncomingMessage) => {
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            // The answer is not needed beyond its status: stop reading once enough has come.
            if (read > maxResponseBytes) response.destroy();
          });
          const finish = () => done({ status: response.statusCode, durationMs: took() });
          response.on('end', finish);
          response.on('close', finish);
          response.on('error', finish);
        });
        outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
        outgoing.on('error', (error) => done({ error: error.message, durationMs: took() }));
        outgoing.end(request.body);
      });
    },
  };
}
