// Why a change of commission terms could pay some orders less, in the reader's language: the rule
// that would pay less and what it pays now, or the most it would pay, and an order that earns less.
// The service sends it as values (upcoming.lowering); its English sentence (upcoming.lowers) is
// for the API's readers.
import { useMessages } from '../i18n/index.js';
import type { components } from '../../../packages/client/index.js';
import { useOutcomeText } from './commission-rule-text.js';

type Lowering = NonNullable<NonNullable<components['schemas']['CommissionRules']['upcoming']>['lowering']>;
type Cause = Lowering['cause'];
type RuleRef = Extract<Cause, { kind: 'outcome' }>['rule'];
type Pays = Extract<Cause, { kind: 'outcome' }>['pays'];

export function useTermsLoweringText(): (lowering: Lowering | undefined, currency: string) => string {
  const { t, money } = useMessages();
  const outcome = useOutcomeText();
  const rule = (ref: RuleRef) =>
    ref.position === undefined ? t('termsChange.defaultRule') : ref.name ? t('termsChange.namedRule', { position: ref.position, name: ref.name }) : t('termsChange.rule', { position: ref.position });
  // Worded as the rules page words a rule's outcome (a share in percent: basis points / 100).
  const pays = (p: Pays, currency: string) =>
    outcome({ transfer: p.kind === 'share' ? 'cps' : 'cpa', value: p.kind === 'share' ? p.units / 100 : p.units, per: p.kind === 'perUnit' ? 'item' : 'order', ...(p.cap !== undefined && { cap: p.cap }) }, currency);
  const cause = (c: Cause, currency: string) => {
    switch (c.kind) {
      case 'outcome': {
        const same = c.rule.position === c.paidNowBy.position && c.rule.name === c.paidNowBy.name;
        const sentence = same
          ? t('termsChange.paysInstead', { rule: rule(c.rule), after: pays(c.pays, currency), before: pays(c.paidNow, currency) })
          : t('termsChange.paysWhere', { rule: rule(c.rule), after: pays(c.pays, currency), now: rule(c.paidNowBy), before: pays(c.paidNow, currency) });
        return c.fromValue === undefined ? sentence : t('termsChange.fromValue', { sentence, value: money(c.fromValue, currency) });
      }
      case 'ceiling':
        return t('termsChange.ceiling', { rule: rule(c.rule), most: money(c.most, currency) });
      case 'valueNotItems':
        return t('termsChange.valueNotItems');
    }
  };
  return (lowering, currency) => {
    if (!lowering) return t('termsChange.none');
    const why = cause(lowering.cause, currency);
    const { example } = lowering;
    return example ? t('termsChange.example', { why, value: money(example.value, currency), after: money(example.after, currency), before: money(example.before, currency) }) : why;
  };
}
