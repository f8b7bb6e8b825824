// The keys that encrypt payee details: one current key (new ciphertexts) and older ones still read
// (ciphertexts written before a rotation), each known by its id (src/lib/sealed-box.ts keyIdOf),
// which every ciphertext carries. They come from PAYEE_ENCRYPTION_KEY and PAYEE_ENCRYPTION_OLD_KEYS,
// or from a key file: one base64 key a line, the first current, '#' lines comments. A key file is
// read again when it changes, so `affnet payee rotate-key --new-key` reaches running instances.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { KEY_BYTES, keyIdOf, newKeyText } from './sealed-box.js';

export interface RingKey {
  id: string;
  key: Buffer;
}

export interface KeyRing {
  /** The key new ciphertexts are written with; undefined: none configured (writes are refused). */
  current: RingKey | undefined;
  /** Every key that can be read with, the current one included. */
  find(id: string): RingKey | undefined;
  /** Ids of the keys read with but no longer written with. */
  oldIds(): string[];
}

/** A key from its text (base64 or base64url of 32 bytes); throws naming `where` when it is not one. */
export function parseKey(text: string, where: string): RingKey {
  const value = text.trim();
  const bytes = /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value.replace(/=$/, ''), value.includes('-') || value.includes('_') ? 'base64url' : 'base64') : undefined;
  if (!bytes || bytes.length !== KEY_BYTES) throw new Error(`${where} must be 32 random bytes in base64 (make one with: openssl rand -base64 32)`);
  return { id: keyIdOf(bytes), key: bytes };
}

/** The keys of a key file's text: one a line, the first current; blank and '#' lines skipped. */
export function parseKeyFile(text: string, path: string): RingKey[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), index }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'))
    .map(({ line, index }) => parseKey(line, `line ${index + 1} of ${path}`));
}

const FILE_HEADER = '# affnet: keys of the payee details (AES-256-GCM). The first is current; the others still read older rows.\n# Keep this file with every backup of the database: without it, payee details cannot be read.\n';

/** Writes a key file (readable by the service's user only), atomically. */
export function writeKeyFile(path: string, keys: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${FILE_HEADER}${keys.join('\n')}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

/** Makes a key file with one new key, unless the file exists; whether it made it. */
export function createKeyFileIfMissing(path: string): boolean {
  if (existsSync(path)) return false;
  mkdirSync(dirname(path), { recursive: true });
  try {
    // 'wx': of two processes starting at once, one makes the file and the other reads it.
    writeFileSync(path, `${FILE_HEADER}${newKeyText()}\n`, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Puts a new random key first in the key file (the others stay, to read older rows); its id. */
export function prependNewKey(path: string): string {
  const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')) : [];
  const key = newKeyText();
  writeKeyFile(path, [key, ...lines]);
  return parseKey(key, 'the new key').id;
}

function ringOf(current: RingKey | undefined, others: readonly RingKey[]): KeyRing {
  const byId = new Map<string, RingKey>();
  for (const key of [...(current ? [current] : []), ...others]) if (!byId.has(key.id)) byId.set(key.id, key);
  return {
    current,
    find: (id) => byId.get(id),
    oldIds: () => [...byId.keys()].filter((id) => id !== current?.id),
  };
}

export interface KeySources {
  /** PAYEE_ENCRYPTION_KEY: the current key; when set, a key file only adds keys to read. */
  currentKey: string | undefined;
  /** PAYEE_ENCRYPTION_OLD_KEYS: keys read, never written with. */
  oldKeys: readonly string[];
  /** The key file (PAYEE_KEY_FILE, or payee.key beside the SQLite file); null: none. */
  keyFile: string | null;
}

/**
 * The ring the sources give, as a function answering the ring in force: keys from variables are
 * fixed for the process, a key file is read again whenever it changed on disk.
 */
export function keyRingOf(sources: KeySources): () => KeyRing {
  const fromVariables = {
    current: sources.currentKey ? parseKey(sources.currentKey, 'PAYEE_ENCRYPTION_KEY') : undefined,
    old: sources.oldKeys.map((key, i) => parseKey(key, `key ${i + 1} of PAYEE_ENCRYPTION_OLD_KEYS`)),
  };
  let cached: { stamp: string; ring: KeyRing } | undefined;
  return () => {
    const path = sources.keyFile;
    const stat = path && existsSync(path) ? statSync(path) : undefined;
    const stamp = stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : '';
    if (cached?.stamp === stamp) return cached.ring;
    const fileKeys = stat ? parseKeyFile(readFileSync(path!, 'utf8'), path!) : [];
    const current = fromVariables.current ?? fileKeys[0];
    const ring = ringOf(current, [...fromVariables.old, ...fileKeys]);
    cached = { stamp, ring };
    return ring;
  };
}
