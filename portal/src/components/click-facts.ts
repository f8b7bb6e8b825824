// A click's facts as a person reads them: the country by its name in the page's language (BR →
// Brasil), the kind of device in words. Browsers and systems keep their own names.
import { useMessages } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';

const DEVICE_WORDS: Record<string, MessageKey> = { desktop: 'device.desktop', mobile: 'device.mobile', tablet: 'device.tablet', other: 'device.other' };

export function useClickFactWords(): { country: (code: string) => string; device: (kind: string) => string } {
  const { t, locale } = useMessages();
  const regions = new Intl.DisplayNames(locale, { type: 'region' });
  return {
    country: (code) => {
      try {
        return regions.of(code.toUpperCase()) ?? code;
      } catch {
        // Not a region code (a reserved or unknown one): as the click gave it.
        return code;
      }
    },
    device: (kind) => (DEVICE_WORDS[kind] ? t(DEVICE_WORDS[kind]) : kind),
  };
}
