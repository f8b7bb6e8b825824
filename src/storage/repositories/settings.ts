// Settings of the installation, by name, shared by every instance on the database.
import type { Database } from '../database.js';

export class SettingsRepository {
  constructor(private readonly database: Database) {}

  async get(name: string): Promise<string | undefined> {
    return (await this.database.db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst())?.value;
  }

  /** Stores the value unless the setting exists; either way answers the stored one (the first writer wins). */
  async getOrCreate(name: string, value: string, now: string): Promise<string> {
    await this.database.db.insertInto('settings').values({ name, value, updated_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();
    return (await this.get(name))!;
  }

  async set(name: string, value: string, now: string): Promise<void> {
    await this.database.db
      .insertInto('settings')
      .values({ name, value, updated_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
      .execute();
  }
}
