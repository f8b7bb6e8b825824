// What the click writer adds to a click before storing it: the country of the client address
// (which is then dropped: only the salted visitor hash is kept), the device, browser and OS from
// the user agent, and the referrer's host.
import { agentFacts } from '../lib/user-agents.js';
import { noCountryLookup, openCountryLookup, type CountryLookup } from '../lib/ip-country.js';
import { refererHost } from '../lib/referers.js';
import type { NewClickRow } from './tables.js';

/** A click on its way to the writer, with the request facts it is enriched from. */
export interface ClickWrite {
  click: NewClickRow;
  /** The client address, used for the country and never stored. */
  address: string;
  referer: string | null;
}

/** The click as stored: its facts filled in, the address left behind. */
export function enrichClick(write: ClickWrite, countries: CountryLookup): NewClickRow {
  const agent = agentFacts(write.click.user_agent);
  return {
    ...write.click,
    country: countries.countryOf(write.address),
    device: agent.device,
    browser: agent.browser,
    os: agent.os,
    referer_host: refererHost(write.referer),
  };
}

/** The IP database at `path`, or none (every country ZZ) when the operator turned it off. */
export function countryLookupAt(path: string | null): CountryLookup {
  return path === null ? noCountryLookup : openCountryLookup(path);
}
