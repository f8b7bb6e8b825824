// The lines or items an import refused, each with its reason: a catalogue upload's answer and a
// feed run's report.
import { useMessages } from '../i18n/index.js';

export interface RefusedLine {
  line?: number | undefined;
  id?: string | undefined;
  reason: string;
}

/** `testIdPrefix`: each row with a line number is found by the prefix and its line. */
export function RefusedLines({ caption, rows, testIdPrefix }: { caption: string; rows: RefusedLine[]; testIdPrefix?: string }) {
  const { t } = useMessages();
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('catalogue.line')}</th>
          <th scope="col">{t('catalogue.id')}</th>
          <th scope="col">{t('catalogue.reason')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={i} data-testid={testIdPrefix && row.line !== undefined ? `${testIdPrefix}${row.line}` : undefined}>
            <td>{row.line ?? '—'}</td>
            <td class="wrap">{row.id ?? '—'}</td>
            <td class="wrap">{row.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
