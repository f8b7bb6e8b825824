// What the serving thread and a feed's parsing worker (src/domain/feeds/feed-worker.ts) say to
// each other. The worker pulls the file's bytes a chunk at a time and hands back products a batch
// at a time, each batch written before it reads on, so neither side ever holds more than a chunk
// and a batch of the file however large it is.
import type { ChunkMessage, PullMessage, WrittenMessage } from '../../lib/pulled-chunks.js';
import type { FeedFormat, FeedProduct, Refusal } from './feed-items.js';

export interface ParseOptions {
  format: FeedFormat;
  /** The brand's currency: items priced in another are refused. */
  currency: string;
  /** The most decompressed bytes read (FEED_MAX_MB). */
  maxBytes: number;
  /** Options (items) per batch written. */
  batchSize: number;
  /** Refusals reported one by one; the rest are counted. */
  maxRefusals: number;
}

/** How far the reading got. */
export interface ParseCounts {
  /** Items read, taken or refused. */
  items: number;
  /** Decompressed bytes read. */
  bytes: number;
  /** Items refused (all of them, reported or not). */
  refused: number;
}

export type ToWorker = ChunkMessage | WrittenMessage;

export type FromWorker =
  | PullMessage
  | { type: 'batch'; products: FeedProduct[]; refusals: Refusal[]; counts: ParseCounts }
  | ({ type: 'done'; refusals: Refusal[] } & ParseCounts)
  | ({ type: 'failed'; reason: string; refusals: Refusal[] } & ParseCounts);
