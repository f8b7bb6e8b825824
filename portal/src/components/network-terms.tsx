import { useMessages } from '../i18n/index.js';

export interface NetworkTerms {
  /** The fee on each commission billed, in basis points of the commission (3000: 30 %). */
  feeBasisPoints: number;
  /** Days to pay a statement after it is issued. */
  dueDays: number;
}

/** An example commission the sentence works through: 100 of the brand's currency. */
const EXAMPLE_COMMISSION = 10_000;

/** A share in basis points as the person's language writes a percentage (3000 → "30%" in pt-BR). */
export function percentText(basisPoints: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(basisPoints / 10_000);
}

/** The network's terms for the brand's statements in words: what it charges on a commission, and when to pay. */
export function NetworkTermsText({ terms, currency }: { terms: NetworkTerms; currency: string }) {
  const { t, locale, money } = useMessages();
  // The fee of one line as statements compute it: rounded half up to the cent.
  const fee = Math.floor((EXAMPLE_COMMISSION * terms.feeBasisPoints + 5_000) / 10_000);
  const pay = terms.dueDays === 0 ? t('terms.payAtOnce') : terms.dueDays === 1 ? t('terms.payOneDay') : t('terms.pay', { days: terms.dueDays });
  return (
    <>
      <span data-testid="network-terms">
        {terms.feeBasisPoints === 0 ? t('terms.noFee') : t('terms.fee', { percent: percentText(terms.feeBasisPoints, locale) })} {pay}
      </span>{' '}
      {terms.feeBasisPoints > 0 && (
        <span class="hint">{t('terms.example', { commission: money(EXAMPLE_COMMISSION, currency), total: money(EXAMPLE_COMMISSION + fee, currency) })}</span>
      )}
    </>
  );
}
