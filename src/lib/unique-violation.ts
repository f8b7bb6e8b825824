// A row a unique index refused, recognized alike on both databases: PostgreSQL's 23505 names the
// index in `constraint`; SQLite's SQLITE_CONSTRAINT_UNIQUE names it in the message (an index on
// an expression as "index 'name'", one on columns by its columns).

/** Whether `error` is a unique violation; with `index`, one of that index. */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown } | null | undefined;
  if (e?.code === '23505') return index === undefined || e.constraint === index;
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE') return index === undefined || (typeof e.message === 'string' && e.message.includes(`index '${index}'`));
  return false;
}

/**
 * A name kept unique by an index (among one owner's things of a kind) is taken: what a repository
 * throws for that violation, worded as the service's own check words it, so every caller (the
 * HTTP API's 409 `<kind>_name_taken`, the CLI's message) answers a lost race as it answers a
 * name taken before.
 */
export class NameTaken extends Error {
  constructor(
    readonly kind: string,
    readonly taken: string,
  ) {
    super(`you already have a ${kind} named "${taken}"; choose another name`);
    this.name = 'NameTaken';
  }
}

/**
 * Runs `write` (a transaction that revokes an owner's one active key and inserts its successor)
 * again when a unique index refused it: two replacements at once, the later one did not see the
 * earlier one's new key and is refused by the one-active-key index; run again, it replaces that
 * key, so the last replacement wins, as it would one after the other. Three tries at most.
 */
export async function retriedOnUniqueRace<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}
