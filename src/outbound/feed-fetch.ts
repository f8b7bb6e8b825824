// Fetches a brand's product feed with the webhooks' outbound safety (src/outbound/outbound-target.ts:
// https only, checked and pinned public addresses, no redirects). The body is handed on as it
// streams in, never read whole here: how much of it may be read is the parser's to count, on the
// decompressed bytes. A server that does not answer within the timeout, or goes quiet for as long
// mid-body, ends the fetch.
import type { IncomingMessage } from 'node:http';
import type { FeedFetcher, FetchedFeed } from '../domain/feeds/feed-source.js';
import { checkedAddress, pinnedRequest, type Resolver } from './outbound-target.js';

export interface FeedFetchOptions {
  allowLocal: boolean;
  /** How long to wait for the answer to begin, and for each piece of it after that. */
  timeoutMs?: number;
  resolve?: Resolver;
}

export function feedFetcher(options: FeedFetchOptions): FeedFetcher {
  const { allowLocal, timeoutMs = 30_000, resolve } = options;
  return async (text: string): Promise<FetchedFeed> => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { ok: false, reason: 'refused: not a valid URL' };
    }
    let address: string;
    try {
      address = await checkedAddress(url, { allowLocal, ...(resolve && { resolve }) });
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
    return new Promise<FetchedFeed>((done) => {
      const outgoing = pinnedRequest(url, address, { method: 'GET', headers: { accept: 'application/xml, text/xml, text/tab-separated-values, text/csv, */*;q=0.5', 'accept-encoding': 'gzip' }, timeout: timeoutMs }, (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.destroy();
          return done({ ok: false, reason: `the URL answered ${status}, a redirect${response.headers.location ? ` to ${response.headers.location}` : ''}: redirects are not followed; give the feed's final URL` });
        }
        if (status !== 200) {
          response.destroy();
          return done({ ok: false, reason: `the URL answered ${status} instead of the feed` });
        }
        // The same timeout holds while the body streams: a server gone quiet ends the run.
        response.setTimeout(timeoutMs, () => response.destroy(new Error(`the feed stopped coming for ${timeoutMs / 1000} s`)));
        done({ ok: true, body: response, contentType: String(response.headers['content-type'] ?? '') });
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
      outgoing.on('error', (error) => done({ ok: false, reason: `fetching the feed failed: ${error.message}` }));
      outgoing.end();
    });
  };
}
