// Autonomous system (the network) of a client address, from an ASN database in MaxMind's MMDB
// format whose records carry autonomous_system_number: the iptoasn or ip-location-db ASN files,
// or MaxMind's GeoLite2 ASN. The operator supplies it (ASN_DATABASE); without one no click has an
// ASN and the data-centre rule is off.
import { readFileSync } from 'node:fs';
import { Reader, type Response } from 'mmdb-lib';

export interface AsnLookup {
  /** The address's autonomous system number, or null when the database does not know it. */
  asnOf(address: string): number | null;
  /** The network's name as the database has it (autonomous_system_organization), when it has one. */
  nameOf(address: string): string | undefined;
}

interface AsnRecord {
  autonomous_system_number?: unknown;
  autonomous_system_organization?: unknown;
}

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
/**
 * Decoded records kept, by their place in the file. An ASN database has tens of thousands of
 * records (one per network), far more than a country one; traffic comes from comparatively few
 * networks (consumer ISPs, mobile carriers), so these cover most clicks.
 */
const RECORDS_KEPT = 16_384;

/** Reads the database at `path` whole into memory; lookups are then synchronous. */
export function openAsnLookup(path: string): AsnLookup {
  const records = new Map<number, unknown>();
  const cache = { get: (offset: number) => records.get(offset), set: (offset: number, record: unknown) => void (records.size < RECORDS_KEPT && records.set(offset, record)) };
  const reader = new Reader<Response>(readFileSync(path), { cache });
  const recordOf = (address: string): AsnRecord | null => {
    try {
      return reader.get(address.replace(MAPPED_V4, '$1')) as AsnRecord | null;
    } catch {
      return null; // not an address the database can look up
    }
  };
  return {
    asnOf(address) {
      const asn = recordOf(address)?.autonomous_system_number;
      return typeof asn === 'number' && Number.isInteger(asn) && asn > 0 ? asn : null;
    },
    nameOf(address) {
      const name = recordOf(address)?.autonomous_system_organization;
      return typeof name === 'string' && name !== '' ? name : undefined;
    },
  };
}

/** Without an ASN database no address has one. */
export const noAsnLookup: AsnLookup = { asnOf: () => null, nameOf: () => undefined };

/** The ASN database at `path`, or none. */
export const asnLookupAt = (path: string | null): AsnLookup => (path === null ? noAsnLookup : openAsnLookup(path));

const MAX_ASN = 4_294_967_295;

/**
 * The data-centre networks of DATACENTER_ASNS_FILE: one ASN a line (`16509` or `AS16509`), blank
 * lines and `#` comments ignored. A line that is not an ASN is an error naming it.
 */
export function parseAsnList(text: string, source: string): Set<number> {
  const asns = new Set<number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    const match = /^(?:AS)?(\d{1,10})$/i.exec(line);
    const asn = match ? Number(match[1]) : Number.NaN;
    if (!(asn >= 1 && asn <= MAX_ASN)) throw new Error(`${source} line ${i + 1}: "${raw.trim()}" is not an autonomous system number (one a line, e.g. 16509 or AS16509; # starts a comment)`);
    asns.add(asn);
  });
  return asns;
}

export function readAsnList(path: string): Set<number> {
  return parseAsnList(readFileSync(path, 'utf8'), path);
}
