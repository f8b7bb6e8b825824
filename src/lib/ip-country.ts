// Country of a client address, from an IP database in MaxMind's MMDB format. The default is the
// database shipped in @ip-location-db/geo-whois-asn-country-mmdb (records { country_code }); a
// MaxMind GeoLite2/GeoIP2 Country or City file (records { country: { iso_code } }) works too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'mmdb-lib';

/** What an address is answered with when its country is not known (ISO 3166 user-assigned code). */
export const UNKNOWN_COUNTRY = 'ZZ';

export interface CountryLookup {
  /** ISO 3166 alpha-2 (upper case) of the address, or ZZ. */
  countryOf(address: string): string;
}

interface CountryRecord {
  country_code?: unknown;
  country?: { iso_code?: unknown };
}

/** The file of the IP database that ships with the service. */
export function bundledIpDatabasePath(): string {
  return createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
}

const ALPHA_2 = /^[A-Z]{2}$/;
// Node writes IPv4 peers on a dual-stack socket as IPv4-mapped IPv6; the database keys them as IPv4.
const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * Decoded records kept, by their place in the file: a country database has a few hundred (one per
 * country), and decoding one again for every address was a third of a lookup. A city database
 * has many more; past this many, the others are decoded each time.
 */
const RECORDS_KEPT = 1024;

/** Reads the database at `path` whole into memory (a few MB); lookups are then synchronous. */
export function openCountryLookup(path: string): CountryLookup {
  const records = new Map<number, unknown>();
  const cache = { get: (offset: number) => records.get(offset), set: (offset: number, record: unknown) => void (records.size < RECORDS_KEPT && records.set(offset, record)) };
  const reader = new Reader<Response>(readFileSync(path), { cache });
  return {
    countryOf(address) {
      let record: CountryRecord | null;
      try {
        record = reader.get(address.replace(MAPPED_V4, '$1')) as CountryRecord | null;
      } catch {
        return UNKNOWN_COUNTRY; // not an address the database can look up
      }
      const code = record?.country_code ?? record?.country?.iso_code;
      return typeof code === 'string' && ALPHA_2.test(code.toUpperCase()) ? code.toUpperCase() : UNKNOWN_COUNTRY;
    },
  };
}

/** Without an IP database every address is ZZ. */
export const noCountryLookup: CountryLookup = { countryOf: () => UNKNOWN_COUNTRY };
