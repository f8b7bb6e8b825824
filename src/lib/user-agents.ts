// Device type, browser and OS family of a user agent, with bowser (MIT). Parsing costs tens of
// microseconds and traffic repeats a few agents, so answers are kept for the most recent ones.
import Bowser from 'bowser';
import { rememberPerAgent } from './agent-memo.js';

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
const factsOf = rememberPerAgent(parse);

export function agentFacts(userAgent: string | null | undefined): AgentFacts {
  if (!userAgent) return { device: 'other', browser: OTHER, os: OTHER };
  return factsOf(userAgent);
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
