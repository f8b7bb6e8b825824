// The tag for a Shopify shop: a custom pixel (Settings › Customer events › Add custom pixel).
// Shopify no longer runs scripts on its checkout and order status pages (the "Additional scripts"
// box stops in 2025–2026), and a custom pixel runs in a sandbox with no access to the shop's page,
// so the tag itself cannot run there: this pixel does its two jobs with Shopify's Web Pixels API.
// On `page_viewed` it keeps the click id from the landing address (through `browser.localStorage`,
// the shop's own storage) and announces a test link's visit; on `checkout_completed` it reports
// the order to POST /track/conversions, as the tag would: its id, total in integer cents by the
// currency's minor unit, currency, and discount code. JavaScript only: the box takes no HTML.
// Sources: docs/decisions.md ("Guides per shop platform").

export interface PixelSettings {
  key: string;
  param: string;
  days: number;
  publicUrl: string;
}

export function shopifyPixel({ key, param, days, publicUrl }: PixelSettings): string {
  const settings = JSON.stringify({ key, param, days, url: publicUrl });
  return `const affnet = ${settings};
const affnetPost = (path, body) =>
  fetch(affnet.url + path, { method: 'POST', body: JSON.stringify(body), keepalive: true, headers: { 'content-type': 'text/plain' } });

analytics.subscribe('page_viewed', async (event) => {
  const query = new URLSearchParams(event.context.document.location.search);
  const id = query.get(affnet.param);
  if (!id || !/^[0-9a-f]{32}$/.test(id)) return;
  await browser.localStorage.setItem('affnet_click', JSON.stringify({ id, until: Date.now() + affnet.days * 864e5 }));
  if (query.has('affnet_test')) affnetPost('/track/visits', { key: affnet.key, clickId: id });
});

analytics.subscribe('checkout_completed', async (event) => {
  const checkout = event.data.checkout;
  // Some stores give the order's id as gid://shopify/OrderIdentity/5210499102: the number is the export's Id.
  const orderId = String((checkout.order && checkout.order.id) || '').split('/').pop();
  if (!orderId) return;
  let kept = null;
  try {
    kept = JSON.parse((await browser.localStorage.getItem('affnet_click')) || 'null');
  } catch (error) {}
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: checkout.currencyCode }).resolvedOptions().maximumFractionDigits;
  } catch (error) {}
  const value = Math.round(Number(checkout.totalPrice && checkout.totalPrice.amount) * 10 ** digits);
  if (!(value >= 1)) return;
  const code = (checkout.discountApplications || []).find((discount) => discount.type === 'DISCOUNT_CODE');
  affnetPost('/track/conversions', {
    key: affnet.key,
    orderId,
    value,
    currency: checkout.currencyCode,
    // One word of at most 100 characters, as codes are: a code the network cannot take never costs the order.
    coupon: code && /^\\S{1,100}$/.test(code.title) ? code.title : undefined,
    clickId: kept && kept.until > Date.now() ? kept.id : undefined,
  });
});`;
}
