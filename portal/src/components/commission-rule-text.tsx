// A commission rule in words, as its brand and its affiliates read it: its conditions, one per
// line, and what it pays. Amounts are cents of the brand's currency.
import type { components } from '../../../packages/client/index.js';
import { useMessages } from '../i18n/index.js';

type Rule = components['schemas']['BrandCommissionRules']['rules'][number];

/** What a rule pays, in words: "10 % of each item", "$15.00 per order", capped. */
export function useOutcomeText(): (rule: Pick<Rule, 'transfer' | 'value' | 'per' | 'cap'>, currency: string) => string {
  const { t, money, number } = useMessages();
  return (rule, currency) => {
    const pays = rule.transfer === 'cps' ? t('rules.paysCps', { percent: number(rule.value) }) : t(rule.per === 'item' ? 'rules.paysCpaItem' : 'rules.paysCpaOrder', { amount: money(rule.value, currency) });
    return rule.cap === undefined ? pays : `${pays} ${t('rules.capText', { cap: money(rule.cap, currency) })}`;
  };
}

/** The conditions of a rule, one phrase each; none: "every item". */
export function useConditionTexts(): (rule: Rule, currency: string) => string[] {
  const { t, money } = useMessages();
  return (rule, currency) => {
    const c = rule.conditions ?? {};
    const texts: string[] = [];
    if (c.productIds) texts.push(t('rules.whenProducts', { ids: c.productIds.join(', ') }));
    if (c.categories) texts.push(t('rules.whenCategories', { names: c.categories.join(', ') }));
    if (c.customer) texts.push(t(c.customer === 'new' ? 'rules.whenNew' : 'rules.whenReturning'));
    if (c.channelKinds) texts.push(t('rules.whenChannels', { kinds: c.channelKinds.join(', ') }));
    if (c.affiliateGroups) texts.push(t('rules.whenGroups', { groups: c.affiliateGroups.join(', ') }));
    if (c.coupon) {
      if (!c.coupon.codes && !c.coupon.otherCodes) texts.push(t('rules.whenAnyCoupon'));
      else {
        const parts = [...(c.coupon.codes ?? []), ...(c.coupon.otherCodes ? [t('rules.otherCodes', { count: c.coupon.otherCodes })] : [])];
        texts.push(t('rules.whenCodes', { codes: parts.join(', ') }));
      }
    }
    if (c.orderValue) {
      const { min, max } = c.orderValue;
      if (min !== undefined && max !== undefined) texts.push(t('rules.whenBetween', { min: money(min, currency), max: money(max, currency) }));
      else if (min !== undefined) texts.push(t('rules.whenAtLeast', { min: money(min, currency) }));
      else if (max !== undefined) texts.push(t('rules.whenAtMost', { max: money(max, currency) }));
    }
    return texts.length > 0 ? texts : [t('rules.whenAlways')];
  };
}
