// What a shop owner does to install tracking, by the platform the shop runs on: numbered steps in
// the admin's own menu names, and the one code to paste. The platforms' documentation behind each
// guide is cited in docs/decisions.md ("Guides per shop platform").
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useMessages } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/en.js';

export const PLATFORMS = ['shopify', 'nuvemshop', 'woocommerce', 'vtex', 'tray', 'gtm', 'other'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Each platform's steps (catalogue keys), and which code it pastes. */
const GUIDES: Record<Platform, { steps: MessageKey[]; code: 'everyPage' | 'shopifyPixel' }> = {
  shopify: { steps: ['tag.guide.shopify.1', 'tag.guide.shopify.2', 'tag.guide.shopify.3', 'tag.guide.shopify.4'], code: 'shopifyPixel' },
  nuvemshop: { steps: ['tag.guide.hosted.gtm', 'tag.guide.hosted.support', 'tag.guide.hosted.export'], code: 'everyPage' },
  woocommerce: { steps: ['tag.guide.woocommerce.1', 'tag.guide.woocommerce.2', 'tag.guide.woocommerce.3'], code: 'everyPage' },
  vtex: { steps: ['tag.guide.vtex.1', 'tag.guide.vtex.2', 'tag.guide.vtex.3'], code: 'everyPage' },
  tray: { steps: ['tag.guide.hosted.gtm', 'tag.guide.hosted.support', 'tag.guide.hosted.export'], code: 'everyPage' },
  gtm: { steps: ['tag.guide.gtm.1', 'tag.guide.gtm.2', 'tag.guide.gtm.3', 'tag.guide.gtm.4', 'tag.guide.gtm.5'], code: 'everyPage' },
  other: { steps: ['tag.guide.other.1', 'tag.guide.other.2', 'tag.guide.other.3'], code: 'everyPage' },
};

const PLATFORM_NAMES: Record<Platform, MessageKey> = {
  shopify: 'tag.platform.shopify',
  nuvemshop: 'tag.platform.nuvemshop',
  woocommerce: 'tag.platform.woocommerce',
  vtex: 'tag.platform.vtex',
  tray: 'tag.platform.tray',
  gtm: 'tag.platform.gtm',
  other: 'tag.platform.other',
};

/** The platform chosen last time on this browser: a shop owner comes back to test. */
const REMEMBERED = 'affnet.shopPlatform';
const remembered = (): Platform | '' => {
  const value = typeof localStorage === 'undefined' ? null : localStorage.getItem(REMEMBERED);
  return (PLATFORMS as readonly string[]).includes(value ?? '') ? (value as Platform) : '';
};

/** One code to paste, with a button that copies it. */
export function Snippet({ id, title, hint, text, children }: { id: string; title: string; hint?: string; text: string; children?: ComponentChildren }) {
  const { t } = useMessages();
  const [copied, setCopied] = useState(false);
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      {hint && <p class="hint">{hint}</p>}
      {children}
      <pre class="snippet" data-testid={`snippet-${id}`}>
        <code>{text}</code>
      </pre>
      <button type="button" onClick={() => void navigator.clipboard.writeText(text).then(() => setCopied(true))}>
        {copied ? t('tag.copied') : t('tag.copy')}
      </button>
    </section>
  );
}

/** The platform's steps and its code. */
export function PlatformGuide({ snippets }: { snippets: { everyPage: string; shopifyPixel: string } }) {
  const { t } = useMessages();
  const [platform, setPlatform] = useState<Platform | ''>(remembered);
  const choose = (value: string) => {
    setPlatform(value as Platform | '');
    if (value) localStorage.setItem(REMEMBERED, value);
  };
  const guide = platform ? GUIDES[platform] : undefined;
  return (
    <section aria-labelledby="guide-title">
      <h2 id="guide-title">{t('tag.install')}</h2>
      <label>
        {t('tag.platform')}
        <select value={platform} onChange={(e) => choose(e.currentTarget.value)}>
          <option value="">{t('tag.platformChoose')}</option>
          {PLATFORMS.map((p) => (
            <option key={p} value={p}>
              {t(PLATFORM_NAMES[p])}
            </option>
          ))}
        </select>
      </label>
      {platform && guide && (
        <>
          <ol class="steps" data-testid="guide-steps">
            {guide.steps.map((step) => (
              <li key={step}>{t(step)}</li>
            ))}
          </ol>
          <Snippet id={guide.code === 'shopifyPixel' ? 'shopify-pixel' : 'every-page'} title={t(guide.code === 'shopifyPixel' ? 'tag.shopifyCode' : 'tag.yourCode')} text={snippets[guide.code]} />
        </>
      )}
    </section>
  );
}
