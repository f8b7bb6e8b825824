import { useMessages } from '../../i18n/index.js';
import { CopyButton } from '../../components/copy-button.js';

/** Recovery codes just made: shown once, with a button to copy them all. */
export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const { t } = useMessages();
  return (
    <div role="status" class="secret">
      <p>{t('recovery.shownOnce')}</p>
      <ol class="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <CopyButton text={codes.join('\n')} label={t('recovery.title')} />
    </div>
  );
}
