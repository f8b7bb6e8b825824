import { centsOf, typedExample } from '../lib/money-text.js';
import { CliError } from './cli-error.js';

/** A whole number written in decimal digits (an optional minus sign), or undefined. */
export function wholeNumber(text: string): number | undefined {
  if (!/^-?\d{1,15}$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

/** The locale the person at the terminal writes numbers in (LC_ALL, LC_NUMERIC, LANG: pt_BR.UTF-8 → pt-BR); en when none says. */
export function terminalLocale(env: NodeJS.ProcessEnv = process.env): string {
  const named = [env.LC_ALL, env.LC_NUMERIC, env.LANG].find((value) => value && value !== 'C' && value !== 'POSIX');
  const tag = named?.split('.')[0]?.replace('_', '-');
  try {
    return tag ? (Intl.getCanonicalLocales(tag)[0] ?? 'en') : 'en';
  } catch {
    return 'en';
  }
}

/**
 * The cents a money command was given: `--amount` as people write amounts in the terminal's
 * locale (975,00 · R$ 1.299,90 · 975.00), or `--cents` as the exact whole number scripts pass.
 * Exactly one of them; anything that is not an amount is refused with an example.
 */
export function amountGiven(options: { amount?: string; cents?: string }, { signed = false } = {}): number {
  if ((options.amount === undefined) === (options.cents === undefined)) throw new CliError('give the amount with --amount (e.g. 975,00 or 975.00) or in cents with --cents (e.g. 97500), one of them');
  if (options.cents !== undefined) {
    const cents = wholeNumber(options.cents);
    if (cents === undefined || (!signed && cents < 0)) throw new CliError(`--cents must be a ${signed ? '' : 'positive '}whole number of cents, got "${options.cents}"`);
    return cents;
  }
  const locale = terminalLocale();
  const cents = centsOf(options.amount ?? '', locale, { signed });
  if (typeof cents !== 'number') {
    throw new CliError(`--amount must be an amount such as ${typedExample(locale, 975)}${signed ? ` or -${typedExample(locale, 15)}` : ''} (read in ${locale}), got "${options.amount}"`);
  }
  return cents;
}
