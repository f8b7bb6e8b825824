// Device type, browser and OS family of a user agent, with bowser (MIT). Parsing costs tens of
// microseconds and traffic repeats a few agents, so answers are kept for the most recent ones.
import Bowser from 'bowser';

export type DeviceType = 'desktop' | 'mobile' | 'tablet' | 'other';

export interface AgentFacts {
  device: DeviceType;
  /** Browser family as bowser names it (Chrome, Safari, Firefox, Microsoft Edge, …) or Other. */
  browser: string;
  /** OS family (iOS, Android, Windows, macOS, Linux, …) or Other. */
  os: string;
}

const OTHER = 'Other';
const DEVICES: ReadonlySet<string> = new Set(['desktop', 'mobile', 'tablet']);
const CACHE_SIZE = 10_000;
const known = new Map<string, AgentFacts>();

export function agentFacts(userAgent: string | null | undefined): AgentFacts {
  if (!userAgent) return { device: 'other', browser: OTHER, os: OTHER };
  let facts = known.get(userAgent);
  if (facts === undefined) {
    facts = parse(userAgent);
    // Only agents of ordinary length are remembered: memory stays bounded whatever clients send.
    if (userAgent.length > 512) return facts;
    if (known.size >= CACHE_SIZE) known.clear();
    known.set(userAgent, facts);
  }
  return facts;
}

function parse(userAgent: string): AgentFacts {
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type ?? '';
  return {
    device: DEVICES.has(type) ? (type as DeviceType) : 'other',
    browser: parsed.browser.name?.slice(0, 64) || OTHER,
    os: parsed.os.name?.slice(0, 64) || OTHER,
  };
}
