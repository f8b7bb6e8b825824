// Fetches a brand's product feed with the webhooks' outbound safety (src/outbound/outbound-target.ts:
// https only, checked and pinned public addresses, no redirects). The body is handed on as it
// streams in, never read whole here: how much of it may be read is the parser's to count, on the
// decompressed bytes. The whole fetch, body included, gets `deadlineMs` (FEED_FETCH_TIMEOUT_MS):
// a body still coming then is destroyed with the reason, which ends the run as failed; a server
// that does not answer, or goes quiet mid-body, for `idleMs` ends it sooner.
import type { IncomingMessage } from 'node:http';
import type { FeedFetcher, FetchedFeed } from '../domain/feeds/feed-source.js';
import { checkedAddress, Deadline, pinnedRequest, RefusedTarget, type Resolver } from './outbound-target.js';

export interface FeedFetchOptions {
  allowLocal: boolean;
  /** The whole fetch at most: lookup, connection, answer and the reading of its body (FEED_FETCH_TIMEOUT_MS). */
  deadlineMs?: number;
  /** How long to wait for the answer to begin, and for each piece of it after that. */
  idleMs?: number;
  resolve?: Resolver;
  /** Told the whole reason of a refused target (the address and its range), for the log: the brand reads only what is wrong. */
  onRefused?: (detail: string, url: string) => void;
}

export function feedFetcher(options: FeedFetchOptions): FeedFetcher {
  const { allowLocal, deadlineMs = 30 * 60_000, resolve, onRefused } = options;
  const idleMs = Math.min(options.idleMs ?? 30_000, deadlineMs);
  const seconds = `${deadlineMs / 1000} s`;
  return async (text: string): Promise<FetchedFeed> => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { ok: false, reason: 'refused: not a valid URL' };
    }
    const deadline = new Deadline(deadlineMs, (stage) => (stage === 'answer' ? `no answer within ${seconds}` : `the whole feed did not come within ${seconds}`));
    let address: string;
    try {
      address = await deadline.within(checkedAddress(url, { allowLocal, ...(resolve && { resolve }) }));
    } catch (error) {
      deadline.clear();
      if (error instanceof RefusedTarget) onRefused?.(error.detail, text);
      return { ok: false, reason: (error as Error).message };
    }
    return new Promise<FetchedFeed>((done) => {
      const failed = (reason: string) => {
        deadline.clear();
        done({ ok: false, reason });
      };
      const outgoing = pinnedRequest(url, address, { method: 'GET', headers: { accept: 'application/xml, text/xml, text/tab-separated-values, text/csv, */*;q=0.5', 'accept-encoding': 'gzip' }, timeout: idleMs }, (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.destroy();
          return failed(`the URL answered ${status}, a redirect${response.headers.location ? ` to ${response.headers.location}` : ''}: redirects are not followed; give the feed's final URL`);
        }
        if (status !== 200) {
          response.destroy();
          return failed(`the URL answered ${status} instead of the feed`);
        }
        // The parser reads the body from here on: the deadline holds until it has read the end (or
        // stopped reading and closed it), and a server gone quiet ends the run sooner.
        deadline.holds(response, 'body');
        response.once('close', () => deadline.clear());
        response.setTimeout(idleMs, () => response.destroy(new Error(`the feed stopped coming for ${idleMs / 1000} s`)));
        done({ ok: true, body: response, contentType: String(response.headers['content-type'] ?? '') });
      });
      deadline.holds(outgoing, 'answer');
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${idleMs / 1000} s`)));
      outgoing.on('error', (error) => failed(`fetching the feed failed: ${error.message}`));
      outgoing.end();
    });
  };
}
