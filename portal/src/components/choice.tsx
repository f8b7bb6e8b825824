import type { MessageKey } from '../i18n/en.js';
import { useMessages } from '../i18n/index.js';

/**
 * A labelled select over fixed choices, each named by a message: the value (controlled) and the
 * choice made, typed as the choices are.
 */
export function Choice<V extends string>({ id, label, value, choices, onChange }: { id: string; label: string; value: V; choices: ReadonlyArray<readonly [V, MessageKey]>; onChange: (value: V) => void }) {
  const { t } = useMessages();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as V)}>
        {choices.map(([choice, key]) => (
          <option key={choice} value={choice}>
            {t(key)}
          </option>
        ))}
      </select>
    </div>
  );
}
