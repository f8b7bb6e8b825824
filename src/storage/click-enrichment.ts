// What the click writer adds to a click before storing it: the country of the client address
// (which is then dropped: only the salted visitor hash is kept), the device, browser and OS from
// the user agent, and the referrer's host.
import { agentFacts } from '../lib/user-agents.js';
import { noCountryLookup, openCountryLookup, type CountryLookup } from '../lib/ip-country.js';
import { refererHost } from '../lib/referers.js';
import type { NewClickRow } from './tables.js';
import { clickInsert, type ClickInsert } from './repositories/clicks.js';

/** A click on its way to the writer, with the request facts it is enriched from. */
export interface ClickWrite {
  click: NewClickRow;
  /** The client address, used for the country and never stored. */
  address: string;
  referer: string | null;
}

/** The click as stored, every column given: its facts filled in, the address left behind. */
export function enrichClick(write: ClickWrite, countries: CountryLookup): ClickInsert {
  const row = clickInsert(write.click);
  const agent = agentFacts(row.user_agent);
  row.country = countries.countryOf(write.address);
  row.device = agent.device;
  row.browser = agent.browser;
  row.os = agent.os;
  row.referer_host = refererHost(write.referer);
  return row;
}

/** The IP database at `path`, or none (every country ZZ) when the operator turned it off. */
export function countryLookupAt(path: string | null): CountryLookup {
  return path === null ? noCountryLookup : openCountryLookup(path);
}
