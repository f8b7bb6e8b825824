// What the serving thread and a shop's export's parsing worker (reconciliation-worker.ts) say to
// each other. The worker pulls the file's bytes a chunk at a time (src/lib/pulled-chunks.ts) and
// hands back its rows a batch at a time, each batch's orders looked up and its lines written before
// it reads on; a refusal (too large, not CSV, a header it cannot read, empty) comes back as the
// domain error's parts.
import type { ChunkMessage, PullMessage, WrittenMessage } from '../../lib/pulled-chunks.js';
import type { DomainErrorKind } from '../errors.js';
import type { BadRow, ColumnMapping, Platform, ShopOrder } from './shop-exports.js';

export interface ExportOptions {
  /** The most bytes read (RECONCILIATION_MAX_MB). */
  maxBytes: number;
  /** The columns the brand named, for a file that is neither Shopify's nor Nuvemshop's. */
  given: Partial<ColumnMapping> | undefined;
  /** The minor unit's digits of the brand's currency, and the currency. */
  digits: number;
  currency: string;
  /** Rows per batch. */
  batchSize: number;
}

export type ToWorker = ChunkMessage | WrittenMessage;

export type FromWorker =
  | PullMessage
  | { type: 'batch'; rows: Array<ShopOrder | BadRow> }
  | { type: 'done'; platform: Platform }
  | { type: 'refused'; kind: DomainErrorKind; code: string; message: string; details?: Record<string, string | number | string[]> | undefined }
  | { type: 'failed'; reason: string };
