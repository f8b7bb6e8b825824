// A thread of its own for reads aside (src/storage/sqlite-reads.ts), with a read-only connection:
// for a database without a click writer thread to serve them (tools, storage tests). A serving
// instance's reads aside go to its click writer's thread instead, one thread fewer.
import SqliteDriver from 'better-sqlite3';
import { serveCalls, startedWith } from './worker-rpc.js';
import { setPageCache } from './sqlite-page-cache.js';
import { sqliteReader, type ReadCall } from './sqlite-reads.js';

const { path, cacheMb } = startedWith<{ path: string; cacheMb: number }>();
const driver = new SqliteDriver(path, { readonly: true });
setPageCache(driver, cacheMb);
driver.pragma('busy_timeout = 5000');
const read = sqliteReader(driver);

serveCalls((payload) => read((payload as ReadCall).read));
