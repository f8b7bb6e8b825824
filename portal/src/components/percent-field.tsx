import { useState } from 'preact/hooks';
import { basisPointsOf, typedPercent } from '../../../src/lib/percent-text.js';
import { useMessages } from '../i18n/index.js';

interface Props {
  /** The form field's name: read it back with `percentField(form, name, locale)`. */
  name: string;
  label: string;
  /** The share it starts with, in basis points (250: 2.5 %). */
  defaultBasisPoints?: number | null;
  required?: boolean;
  id?: string;
}

/**
 * A percentage field read the way people type shares in their language ("2,5" or "2,5 %" in pt-BR;
 * "2.5" in en), kept as basis points. What cannot be read is refused before the form is sent: the
 * browser holds the submit, and the field says, in the person's language, what to type.
 */
export function PercentField({ name, label, defaultBasisPoints, required, id = `percent-${name}` }: Props) {
  const { t, locale } = useMessages();
  const [problem, setProblem] = useState('');
  const [shown, setShown] = useState(false);
  const example = typedPercent(250, locale);
  const check = (input: HTMLInputElement) => {
    const message = basisPointsOf(input.value, locale) === undefined ? t('percent.invalid', { field: label, example }) : '';
    input.setCustomValidity(message);
    setProblem(message);
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        inputMode="decimal"
        autoComplete="off"
        required={required}
        defaultValue={defaultBasisPoints === undefined || defaultBasisPoints === null ? '' : typedPercent(defaultBasisPoints, locale)}
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
        {t('percent.hint', { example })}
      </span>
      {shown && problem && (
        <span id={`${id}-error`} class="error" role="alert" data-testid={`${name}-error`}>
          {problem}
        </span>
      )}
    </div>
  );
}

/** The basis points a PercentField holds, or null when it was left empty (the field already refused anything else). */
export function percentField(form: HTMLFormElement, name: string, locale: string): number | null {
  const value = new FormData(form).get(name);
  const basisPoints = basisPointsOf(typeof value === 'string' ? value : '', locale);
  return typeof basisPoints === 'number' ? basisPoints : null;
}
