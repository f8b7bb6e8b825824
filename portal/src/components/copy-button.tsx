import { useState } from 'preact/hooks';
import { useMessages } from '../i18n/index.js';

/** Copies `text` to the clipboard and says so for two seconds. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useMessages();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" onClick={() => void copy()} aria-label={label ? `${t('common.copy')}: ${label}` : undefined}>
      {copied ? t('common.copied') : t('common.copy')}
    </button>
  );
}
