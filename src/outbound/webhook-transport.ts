// Sends webhook requests where they may go, and nowhere else (src/outbound/outbound-target.ts:
// https only, checked and pinned public addresses). Redirects are not followed; a request gives up
// after the timeout; at most maxResponseBytes of an answer are read.
import type { IncomingMessage } from 'node:http';
import type { WebhookRequest, WebhookResponse, WebhookTransport } from '../domain/webhooks/transport.js';
import { checkedAddress, pinnedRequest, type Resolver } from './outbound-target.js';

export type { Resolver };

export interface TransportOptions {
  /** Allow http and addresses of the local machine and networks. */
  allowLocal: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  resolve?: Resolver;
}

export function webhookTransport(options: TransportOptions): WebhookTransport {
  const { allowLocal, timeoutMs = 10_000, maxResponseBytes = 64 * 1024, resolve } = options;

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
        address = await checkedAddress(url, { allowLocal, ...(resolve && { resolve }) });
      } catch (error) {
        return { error: (error as Error).message, durationMs: took() };
      }
      return new Promise<WebhookResponse>((done) => {
        const headers = { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
        const outgoing = pinnedRequest(url, address, { method: 'POST', headers, timeout: timeoutMs }, (response: IncomingMessage) => {
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
