import { useEffect, useRef, useState } from 'preact/hooks';
import { useMessages } from '../../i18n/index.js';

/** The most banners a campaign offers: enough for every common size. */
const MOST_BANNERS = 12;

/**
 * A campaign's banners (its media kit): the address of each image, with a preview and the size the
 * image really has, so the brand sees what affiliates will place; one added or removed at a time.
 */
export function BannerFields({ banners, onChange }: { banners: string[]; onChange: (banners: string[]) => void }) {
  const { t } = useMessages();
  const change = (index: number, url: string) => onChange(banners.map((b, i) => (i === index ? url : b)));
  return (
    <fieldset class="banners">
      <legend>{t('campaignForm.banners')}</legend>
      <p class="hint">{t('campaignForm.bannersHint')}</p>
      {banners.map((url, index) => (
        <div class="banner" key={index}>
          <div class="field">
            <label for={`banner-${index}`}>{t('campaignForm.bannerN', { n: index + 1 })}</label>
            <input id={`banner-${index}`} type="url" inputMode="url" maxLength={2048} value={url} placeholder="https://" onInput={(e) => change(index, e.currentTarget.value)} />
          </div>
          <BannerPreview url={url.trim()} n={index + 1} />
          <button type="button" class="danger" aria-label={t('campaignForm.removeBannerN', { n: index + 1 })} onClick={() => onChange(banners.filter((_b, i) => i !== index))}>
            {t('campaignForm.removeBanner')}
          </button>
        </div>
      ))}
      {banners.length < MOST_BANNERS && (
        <button type="button" class="secondary" onClick={() => onChange([...banners, ''])}>
          {t('campaignForm.addBanner')}
        </button>
      )}
    </fieldset>
  );
}

/** The image at `url` as it will show, with its width and height once loaded (or why it cannot show). */
function BannerPreview({ url, n }: { url: string; n: number }) {
  const { t, number } = useMessages();
  const [size, setSize] = useState<{ width: number; height: number } | 'broken' | undefined>();
  const image = useRef<HTMLImageElement>(null);
  const measure = (img: HTMLImageElement) => setSize(img.naturalWidth > 0 ? { width: img.naturalWidth, height: img.naturalHeight } : 'broken');
  // An image settled before its handlers were attached (from the cache, or refused at once) is measured here.
  useEffect(() => {
    setSize(undefined);
    if (image.current?.complete) measure(image.current);
  }, [url]);
  if (!/^https?:\/\/\S+$/i.test(url)) return null;
  return (
    <figure class="banner-preview">
      <img
        ref={image}
        onLoad={(e) => measure(e.currentTarget)}
        onError={() => setSize('broken')}
        src={url}
        alt={t('campaignForm.bannerPreview', { n })}
        hidden={size === 'broken'}
      />
      <figcaption class={size === 'broken' ? 'blocked' : 'hint'} data-testid={`banner-size-${n}`}>
        {size === 'broken' ? t('campaignForm.bannerBroken') : size ? t('campaignForm.bannerSize', { width: number(size.width), height: number(size.height) }) : t('common.loading')}
      </figcaption>
    </figure>
  );
}
