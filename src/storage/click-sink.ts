// Where buffered clicks are written: a worker thread with a connection of its own (a SQLite file,
// or PostgreSQL), which enriches each click (country, device, browser, OS, referrer) and stores
// it with its link count and rollups, so the serving thread neither blocks on a write nor spends
// time on enrichment. An in-memory SQLite database (tests, tools) has no second connection: its
// clicks are enriched and written on the serving thread.
import type { Database } from './database.js';
import { ClicksRepository } from './repositories/clicks.js';
import type { ClickWriterCall, ClickWriterOptions, WriteResult } from './click-writer-worker.js';
import { clickBatch, clickRows, countryLookupAt, enrichBatch, type ClickBatch, type ClickWrite } from './click-enrichment.js';
import { asnLookupAt } from '../lib/ip-asn.js';
import { startWorkerRpc } from './worker-rpc.js';
import { DEFAULT_SQLITE_CACHE_MB } from './sqlite-page-cache.js';
import { PartialWriteError } from '../lib/partial-write.js';

export type { ClickWrite } from './click-enrichment.js';

export interface ClickSink {
  /**
   * Writes the clicks (a batch, or clicks an object each, as kept in the overflow); rejects with
   * PartialWriteError saying how many were committed when not all were. The clicks are not held
   * once write() returns (they are sent to the writer thread at once).
   */
  write(clicks: ClickBatch | readonly ClickWrite[]): Promise<void>;
  close(): Promise<void>;
}

const asBatch = (clicks: ClickBatch | readonly ClickWrite[]): ClickBatch => ('columns' in clicks ? clicks : clickBatch(clicks));

function workerSink(options: ClickWriterOptions, database: Database): ClickSink {
  const rpc = startWorkerRpc('click-writer-worker', options);
  // SQLite: the writer's thread also serves the service's reads aside (see Database.readAsideOn).
  database.readAsideOn?.(rpc);
  // Not an async function: its suspended frame would hold the request (a batch of clicks) until
  // the writer answers, long enough for the serving thread's collections to copy it.
  const call = (request: ClickWriterCall) => rpc.call(request).catch((error: Error) => ({ written: 0, error: error.message })) as Promise<WriteResult>;
  return {
    write(clicks) {
      return call({ clicks: asBatch(clicks) }).then((result) => {
        if (result.error !== undefined) throw new PartialWriteError(result.written, result.error);
      });
    },
    async close() {
      // Counts include every stored click before the service stops (the next start would add
      // them anyway, from the stored progress).
      await call({ countNow: true });
      await call({ stop: true });
      await rpc.close();
    },
  };
}

export interface ClickSinkOptions {
  /** How often the writer looks for stored clicks to add to link counts and rollups when it found none. */
  countEveryMs: number;
  /** The IP database (MMDB) countries are found in; null: none (every country ZZ). */
  ipDatabase: string | null;
  /** The ASN database (MMDB) networks are found in; null: none (no click has an ASN). */
  asnDatabase?: string | null;
}

export function openClickSink(database: Database, options: ClickSinkOptions): ClickSink {
  const { countEveryMs, ipDatabase } = options;
  const asnDatabase = options.asnDatabase ?? null;
  if (database.dialect === 'postgres' && database.postgresUrl) {
    return workerSink({ database: { postgresUrl: database.postgresUrl }, countEveryMs, ipDatabase, asnDatabase }, database);
  }
  if (database.dialect === 'sqlite' && database.sqlitePath && database.sqlitePath !== ':memory:') {
    return workerSink({ database: { sqlitePath: database.sqlitePath, cacheMb: database.sqliteCacheMb ?? DEFAULT_SQLITE_CACHE_MB }, countEveryMs, ipDatabase, asnDatabase }, database);
  }
  const repository = new ClicksRepository(database);
  const countries = countryLookupAt(ipDatabase);
  const asns = asnLookupAt(asnDatabase);
  return {
    write(clicks) {
      const batch = asBatch(clicks);
      return repository.write(clickRows(enrichBatch(batch, countries, asns), batch.subIds));
    },
    close: async () => {},
  };
}
