// A device as describeDevice names it ("Chrome on Android (mobile)"), taken apart so that mail and
// pages can say it in the person's language: the browser's and the system's names are names in
// every language; only the joining word and the kind of device are words.

/** The browser, the system and, for a phone or tablet, the kind; undefined for an unknown device. */
export interface DeviceParts {
  browser: string;
  os: string;
  kind?: 'mobile' | 'tablet';
}

const DESCRIBED = /^(.+?) on (.+?)(?: \((mobile|tablet)\))?$/;

export function deviceParts(device: string): DeviceParts | undefined {
  const match = DESCRIBED.exec(device);
  if (!match) return undefined;
  return { browser: match[1]!, os: match[2]!, ...(match[3] && { kind: match[3] as DeviceParts['kind'] }) };
}

const WORDS = {
  en: { on: 'on', mobile: 'phone', tablet: 'tablet', unknown: 'unknown device' },
  'pt-BR': { on: 'no', mobile: 'celular', tablet: 'tablet', unknown: 'dispositivo desconhecido' },
} as const;

/** The device in a sentence of the language ("Chrome no Android (celular)"); mail uses it, the portal its own catalogue. */
export function deviceInWords(device: string | undefined, language: keyof typeof WORDS): string {
  const words = WORDS[language];
  const parts = device === undefined ? undefined : deviceParts(device);
  if (!parts) return words.unknown;
  return `${parts.browser} ${words.on} ${parts.os}${parts.kind ? ` (${words[parts.kind]})` : ''}`;
}
