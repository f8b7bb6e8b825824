// Sends webhook requests where they may go, and nowhere else (src/outbound/outbound-target.ts:
// https only, checked and pinned public addresses). Redirects are not followed; a request, its
// answer and the answer's body together get `timeoutMs` (WEBHOOK_TIMEOUT_MS), after which the try
// has failed whatever the status; at most maxResponseBytes of an answer are read, and its first
// ANSWER_KEPT_BYTES kept (a postback's test shows what the tracker said). Postbacks are sent as
// GET requests through it.
import type { IncomingMessage } from 'node:http';
import type { WebhookRequest, WebhookResponse, WebhookTransport } from '../domain/webhooks/transport.js';
import { checkedAddress, Deadline, pinnedRequest, RefusedTarget, type Resolver } from './outbound-target.js';

export type { Resolver };

/** How much of an answer is kept, as text. */
export const ANSWER_KEPT_BYTES = 1024;

export interface TransportOptions {
  /** Allow http and addresses of the local machine and networks. */
  allowLocal: boolean;
  /** The whole exchange at most: lookup, connection, answer and body (WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number;
  maxResponseBytes?: number;
  resolve?: Resolver;
  /** Told the whole reason of a refused target (the address and its range), for the log: the member reads only what is wrong. */
  onRefused?: (detail: string, url: string) => void;
}

export function webhookTransport(options: TransportOptions): WebhookTransport {
  const { allowLocal, timeoutMs = 10_000, maxResponseBytes = 64 * 1024, resolve, onRefused } = options;
  const seconds = `${timeoutMs / 1000} s`;

  return {
    async send(request: WebhookRequest): Promise<WebhookResponse> {
      const started = performance.now();
      const took = () => Math.round(performance.now() - started);
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return { error: 'refused: not a valid URL', failure: 'refused', durationMs: took() };
      }
      let status: number | undefined;
      const deadline = new Deadline(timeoutMs, (stage) =>
        stage === 'answer' ? `no answer within ${seconds}` : `answered ${String(status)}, but the answer did not end within ${seconds}: a delivery counts once its whole answer has come`,
      );
      try {
        const address = await deadline.within(checkedAddress(url, { allowLocal, ...(resolve && { resolve }) }));
        return await new Promise<WebhookResponse>((done) => {
          const method = request.method ?? 'POST';
          const headers = request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
          const outgoing = pinnedRequest(url, address, { method, headers }, (response: IncomingMessage) => {
            status = response.statusCode;
            deadline.holds(response, 'body');
            let read = 0;
            const kept: Buffer[] = [];
            response.on('data', (chunk: Buffer) => {
              if (read < ANSWER_KEPT_BYTES) kept.push(chunk.subarray(0, ANSWER_KEPT_BYTES - read));
              read += chunk.length;
              // The answer is not needed beyond its status and beginning: stop reading once enough has come.
              if (read > maxResponseBytes) response.destroy();
            });
            const finish = () =>
              done({ status, ...(deadline.error && { error: deadline.error.message, failure: 'timeout' }), durationMs: took(), ...(read > 0 && { answer: Buffer.concat(kept).toString('utf8') }) });
            response.on('end', finish);
            response.on('close', finish);
            response.on('error', finish);
          });
          deadline.holds(outgoing, 'answer');
          // Also after the answer began, when the deadline destroys its connection: the status stays known.
          outgoing.on('error', (error) => done({ ...(status !== undefined && { status }), error: error.message, failure: deadline.error ? 'timeout' : 'unreachable', durationMs: took() }));
          outgoing.end(request.body);
        });
      } catch (error) {
        if (error instanceof RefusedTarget) {
          onRefused?.(error.detail, request.url);
          return { error: error.message, failure: 'refused', durationMs: took() };
        }
        return { error: (error as Error).message, failure: deadline.error ? 'timeout' : 'unreachable', durationMs: took() };
      } finally {
        deadline.clear();
      }
    },
  };
}
