// A feed's parsing, on a thread of its own at background priority (src/lib/thread-priority.ts):
// the bytes are pulled from the serving thread a chunk at a time, gunzipped when they are gzip,
// counted against the size limit after decompression, parsed as they come and mapped to products,
// which go back a batch at a time; the next chunk is asked for only once the batch is written.
import { parentPort } from 'node:worker_threads';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { chunkReceiver } from '../../lib/pulled-chunks.js';
import { startedWith } from '../../lib/worker-start.js';
import { productOfItem, withOptionsOf, type FeedProduct, type Refusal } from './feed-items.js';
import { itemsOf, NotAFeed } from './feed-parsers.js';
import type { FromWorker, ParseCounts, ParseOptions } from './feed-messages.js';

const options = startedWith<ParseOptions>();
const port = parentPort!;

const { pulled, written } = chunkReceiver((reason) => new NotAFeed(reason));
const send = (message: FromWorker) => port.postMessage(message);

/** The bytes, gunzipped when they begin as gzip does (a .gz file, or a server's gzip encoding). */
async function* decompressed(source: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  const first = await source.next();
  if (first.done) return;
  async function* whole() {
    yield first.value;
    yield* source;
  }
  if (first.value[0] !== 0x1f || first.value[1] !== 0x8b) return yield* whole();
  const gunzip = createGunzip();
  pipeline(Readable.from(whole()), gunzip).catch(() => undefined);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) yield chunk;
  } catch (error) {
    if (error instanceof NotAFeed) throw error;
    throw new NotAFeed(`the gzip file is damaged: ${(error as Error).message}`);
  }
}

/**
 * The decoder of a feed from its first bytes: a byte order mark, else the encoding its XML
 * declaration names (shops still send ISO-8859-1), else UTF-8.
 */
function decoderOf(first: Buffer): TextDecoder {
  if (first[0] === 0xff && first[1] === 0xfe) return new TextDecoder('utf-16le');
  if (first[0] === 0xfe && first[1] === 0xff) return new TextDecoder('utf-16be');
  const declared = /^(?:\uFEFF)?\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(first.subarray(0, 512).toString('latin1'))?.[1];
  if (declared === undefined) return new TextDecoder('utf-8');
  try {
    return new TextDecoder(declared);
  } catch {
    throw new NotAFeed(`the feed declares the encoding "${declared}", which cannot be read: send it as UTF-8 or ISO-8859-1`);
  }
}

/** The text of the bytes, counted against the limit; an HTML page is refused at its first bytes. */
async function* text(source: AsyncIterable<Buffer>, counts: ParseCounts): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let looked = false;
  for await (const chunk of source) {
    decoder ??= decoderOf(chunk);
    counts.bytes += chunk.length;
    if (counts.bytes > options.maxBytes) throw new NotAFeed(`the feed is larger than ${Math.round(options.maxBytes / 1024 / 1024)} MB (decompressed), the most the network reads: the rest was not read`);
    const piece = decoder.decode(chunk, { stream: true });
    if (!looked && piece.trim() !== '') {
      looked = true;
      if (/^\uFEFF?\s*(<!doctype\s+html|<html[\s>])/i.test(piece.slice(0, 1024))) throw new NotAFeed('the answer is an HTML page, not a feed: check the feed URL');
    }
    if (piece !== '') yield piece;
  }
  const tail = decoder?.decode() ?? '';
  if (tail !== '') yield tail;
  if (!looked) throw new NotAFeed('the answer was empty: there was no feed to read');
}

async function run(): Promise<void> {
  const counts: ParseCounts = { items: 0, bytes: 0, refused: 0 };
  let refusals: Refusal[] = [];
  let reported = 0;
  const pending = new Map<string, FeedProduct>();
  let pendingItems = 0;
  const flush = async () => {
    if (pending.size === 0 && refusals.length === 0) return;
    // How far the reading got, for the run's report while it runs.
    send({ type: 'batch', products: [...pending.values()], refusals, counts: { ...counts } });
    pending.clear();
    pendingItems = 0;
    refusals = [];
    await written();
  };
  try {
    for await (const item of itemsOf(text(decompressed(pulled()), counts), options.format)) {
      counts.items++;
      const mapped = productOfItem(item, options.currency);
      if (!mapped.ok) {
        counts.refused++;
        if (reported < options.maxRefusals) {
          reported++;
          refusals.push(mapped.refusal);
        }
        continue;
      }
      const earlier = pending.get(mapped.product.id);
      pending.set(mapped.product.id, earlier ? withOptionsOf(earlier, mapped.product) : mapped.product);
      if (++pendingItems >= options.batchSize) await flush();
    }
    await flush();
    send({ type: 'done', ...counts, refusals });
  } catch (error) {
    const reason = error instanceof NotAFeed ? error.message : `reading the feed failed: ${(error as Error).message}`;
    send({ type: 'failed', reason, ...counts, refusals });
  }
}

void run();
