// A file handed to a worker thread a chunk at a time, as the worker asks for it: the serving
// thread reads the next chunk of its stream only when the worker says "pull", and the worker asks
// only once what it made of the previous ones is written. Neither side holds more than a chunk and
// a batch of the file however large it is. A feed's parser (src/domain/feeds) and a shop's order
// export's (src/domain/reconciliation) read their files this way.
import { parentPort } from 'node:worker_threads';

/** What the serving thread answers a pull with: a chunk, the end, or why the file stopped. */
export type ChunkMessage = { type: 'chunk'; data: Uint8Array } | { type: 'end' } | { type: 'source-failed'; reason: string };
/** The serving thread's word that a batch is written. */
export type WrittenMessage = { type: 'written' };
/** The worker's word that it wants the next chunk. */
export type PullMessage = { type: 'pull' };

/**
 * The serving thread's side: a function that hands the worker the source's next chunk (a copy of
 * its own, transferred rather than copied again), its end, or its failure as `failed` says it.
 */
export function chunkHandover(
  source: AsyncIterable<Buffer | string>,
  post: (message: ChunkMessage, transfer?: ArrayBuffer[]) => void,
  failed: (error: Error) => string,
): () => Promise<void> {
  const chunks = source[Symbol.asyncIterator]();
  return async () => {
    let next: IteratorResult<Buffer | string>;
    try {
      next = await chunks.next();
    } catch (error) {
      return post({ type: 'source-failed', reason: failed(error as Error) });
    }
    if (next.done) return post({ type: 'end' });
    const data = typeof next.value === 'string' ? new TextEncoder().encode(next.value) : new Uint8Array(next.value);
    post({ type: 'chunk', data }, [data.buffer]);
  };
}

/**
 * Messages waiting to be read, in order. The worker keeps two: the file's bytes, and the answers to
 * batches. They are two conversations that may overlap (gunzip's pipeline reads the bytes ahead of
 * the parser, so a chunk may arrive while a batch is being written).
 */
class Mailbox<T> {
  private readonly waiting: T[] = [];
  private wake: ((message: T) => void) | undefined;
  put(message: T): void {
    const wake = this.wake;
    this.wake = undefined;
    if (wake) wake(message);
    else this.waiting.push(message);
  }
  next(): Promise<T> {
    return this.waiting.length > 0 ? Promise.resolve(this.waiting.shift()!) : new Promise((resolve) => (this.wake = resolve));
  }
}

/**
 * The worker's side, set up once on its parent port: `pulled` yields the file's bytes as the
 * serving thread hands them over (a failure of the source thrown as `failed` makes it), and
 * `written` waits for the serving thread's word that the last batch is written.
 */
export function chunkReceiver(failed: (reason: string) => Error): { pulled: () => AsyncGenerator<Buffer>; written: () => Promise<WrittenMessage> } {
  const port = parentPort!;
  const bytes = new Mailbox<ChunkMessage>();
  const written = new Mailbox<WrittenMessage>();
  port.on('message', (message: ChunkMessage | WrittenMessage | { type: string }) => {
    if (message.type === 'written') written.put(message as WrittenMessage);
    else if (message.type === 'chunk' || message.type === 'end' || message.type === 'source-failed') bytes.put(message as ChunkMessage);
  });
  async function* pulled(): AsyncGenerator<Buffer> {
    for (;;) {
      port.postMessage({ type: 'pull' } satisfies PullMessage);
      const message = await bytes.next();
      if (message.type === 'chunk') yield Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
      else if (message.type === 'end') return;
      else throw failed(message.reason);
    }
  }
  return { pulled, written: () => written.next() };
}
