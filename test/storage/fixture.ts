// What every repository test starts from: a fresh database of the pass's dialect (a SQLite file,
// or a PostgreSQL database of its own with TEST_POSTGRES_URL), migrated to the latest schema, with
// every repository over it; close() closes the database and then drops it.
import { openDatabase, type Database } from '../../src/storage/database.js';
import { openRepositories, type Repositories } from '../../src/storage/repositories/index.js';
import { freshDatabase, servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import type { NewClickRow } from '../../src/storage/tables.js';

export interface StorageFixture {
  database: Database;
  repos: Repositories;
  close(): Promise<void>;
}

export async function openFixture(): Promise<StorageFixture> {
  const target = await freshDatabase({ migrated: true });
  const database = openDatabase(target.url);
  return {
    database,
    repos: openRepositories(database),
    async close() {
      try {
        await database.close();
      } finally {
        await target.drop();
      }
    },
  };
}

/** A page window large enough for every row a test arranges. */
export const ALL = { limit: 100, offset: 0 } as const;

/** The ids of rows, in the order given: what most list assertions compare. */
export const idsOf = (rows: ReadonlyArray<{ id: string }>): string[] => rows.map((r) => r.id);

/** A brand of the test's own, public or private, on https://<id>.example.com. */
export function saveBrand(database: Database, id: string, isPublic: boolean): Promise<unknown> {
  const network = { active: true, isPublic, trait: { isExclusive: false, isHighlight: false, isFavorite: false }, rating: { approval: 1, commission: 1, conversion: 1, popularity: 1, validation: 1 } };
  return servicesFor(database).imports.upsertBrand(brandInput({ id, name: id, slug: id, site: `https://${id}.example.com`, network }));
}

/** The brand b-acme and the affiliate aff-1 with its site channel ch-site: what click and rollup tests write against. */
export async function saveAcmeWithAffiliate(database: Database): Promise<void> {
  const services = servicesFor(database);
  await services.imports.upsertBrand(brandInput({ id: 'b-acme', name: 'Acme', slug: 'acme', site: 'https://acme.example.com' }));
  await services.access.upsertAffiliate('aff-1', 'One');
  await services.channels.add('aff-1', 'site', 'My blog', 'ch-site');
}

/**
 * Writes clicks and adds them to their links' counts and the rollups, as the click writer does
 * (on PostgreSQL in later steps; on SQLite write adds them at once on the service's connection).
 */
export async function writeClicks(f: StorageFixture, batch: NewClickRow[]): Promise<void> {
  await f.repos.clicks.write(batch);
  await f.repos.clicks.sumAllStored();
}
