import { useState } from 'preact/hooks';
import { centsOf, typedAmount, typedExample } from '../../../src/lib/money-text.js';
import { useMessages } from '../i18n/index.js';

interface Props {
  /** The form field's name: read it back with `moneyField(form, name, locale)`. */
  name: string;
  label: string;
  /** Named in the hint when known. */
  currency?: string | undefined;
  /** The amount it starts with, in cents. */
  defaultCents?: number | null;
  required?: boolean;
  /** A negative amount is allowed (an adjustment that takes back). */
  signed?: boolean;
  /** Zero is refused too (an order's value, a payment). */
  positive?: boolean;
  hint?: string;
  id?: string;
}

/**
 * A money field read the way people type amounts in their language ("129,90", "R$ 1.299,90" in
 * pt-BR; "129.90" in en). What cannot be read is refused before the form is sent: the browser
 * holds the submit, and the field says, in the person's language, what to type, with an example.
 */
export function MoneyField({ name, label, currency, defaultCents, required, signed, positive, hint, id = `money-${name}` }: Props) {
  const { t, locale } = useMessages();
  const [problem, setProblem] = useState('');
  const [shown, setShown] = useState(false);
  const example = typedExample(locale);
  const check = (input: HTMLInputElement) => {
    const cents = centsOf(input.value, locale, { signed });
    const message = cents === undefined ? t('money.invalid', { field: label, example }) : positive && cents === 0 ? t('money.positive', { field: label, example }) : '';
    input.setCustomValidity(message);
    setProblem(message);
  };
  const start = defaultCents === undefined || defaultCents === null ? '' : typedAmount(defaultCents, locale);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        inputMode="decimal"
        autoComplete="off"
        required={required}
        defaultValue={start}
        placeholder={example}
        aria-invalid={shown && problem !== '' ? 'true' : undefined}
        aria-describedby={`${id}-hint${shown && problem ? ` ${id}-error` : ''}`}
        onInput={(e) => check(e.currentTarget)}
        onBlur={(e) => {
          check(e.currentTarget);
          setShown(true);
        }}
        onInvalid={(e) => {
          check(e.currentTarget);
          setShown(true);
        }}
      />
      <span id={`${id}-hint`} class="hint">
        {hint ?? (currency ? t('money.hint', { currency, example }) : t('money.hintNoCurrency', { example }))}
      </span>
      {shown && problem && (
        <span id={`${id}-error`} class="error" role="alert" data-testid={`${name}-error`}>
          {problem}
        </span>
      )}
    </div>
  );
}

/** The cents a MoneyField holds: a number, or null when it was left empty (the field already refused anything else). */
export function moneyField(form: HTMLFormElement, name: string, locale: string, { signed = false } = {}): number | null {
  const value = new FormData(form).get(name);
  const cents = centsOf(typeof value === 'string' ? value : '', locale, { signed });
  return typeof cents === 'number' ? cents : null;
}
