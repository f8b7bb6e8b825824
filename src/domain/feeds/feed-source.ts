// Where a feed run's bytes come from: the brand's URL (fetched by the outbound implementation,
// src/outbound/feed-fetch.ts, which decides where a request may go) or a file the brand uploads.
import type { Readable } from 'node:stream';

/** The answer to a feed's URL: its body as it streams in, or why there is none to read. */
export type FetchedFeed = { ok: true; body: Readable; contentType: string } | { ok: false; reason: string };

export type FeedFetcher = (url: string) => Promise<FetchedFeed>;
