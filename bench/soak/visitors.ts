// The people (and a few crawlers) who follow the links: a fixed population of visitors, each an
// address and a browser, so some come back (repeat clicks) and most are new. Addresses reach the
// servers through X-Forwarded-For, which they believe because they run with TRUST_PROXY=1.

export interface Visitor {
  address: string;
  userAgent: string;
}

const BROWSERS = [
  (v: number) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`,
  (v: number) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v % 10 + 10}.1 Safari/605.1.15`,
  (v: number) => `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${v % 6} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${v % 6} Mobile/15E148 Safari/604.1`,
  (v: number) => `Mozilla/5.0 (Linux; Android 14; Pixel ${v % 5 + 5}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Mobile Safari/537.36`,
  (v: number) => `Mozilla/5.0 (X11; Linux x86_64; rv:${v}.0) Gecko/20100101 Firefox/${v}.0`,
];

const CRAWLERS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
];

const octet = (random: () => number, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

/** A public-looking IPv4 address (first octet outside the private and reserved blocks). */
function address(random: () => number): string {
  let first: number;
  do first = octet(random, 1, 223);
  while (first === 10 || first === 127 || first === 100 || first === 169 || first === 172 || first === 192);
  return `${first}.${octet(random, 0, 255)}.${octet(random, 0, 255)}.${octet(random, 1, 254)}`;
}

export class Visitors {
  private readonly people: Visitor[];

  constructor(
    size: number,
    private readonly random: () => number = Math.random,
  ) {
    this.people = Array.from({ length: size }, () => ({
      address: address(random),
      userAgent: BROWSERS[Math.floor(random() * BROWSERS.length)]!(octet(random, 110, 131)),
    }));
  }

  /** Anyone of the population. */
  person(): Visitor {
    return this.people[Math.floor(this.random() * this.people.length)]!;
  }

  /** A link-preview fetcher or search crawler: its clicks are stored but do not count. */
  crawler(): Visitor {
    return { address: address(this.random), userAgent: CRAWLERS[Math.floor(this.random() * CRAWLERS.length)]! };
  }
}

/** Whether a user agent is one of the crawlers above (their clicks earn nothing, so no order is reported for them). */
export const isCrawler = (userAgent: string): boolean => CRAWLERS.includes(userAgent);
