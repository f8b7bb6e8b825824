import { useState } from 'preact/hooks';
import { useMessages } from '../i18n/index.js';

/**
 * What an action did, said in words and kept on the page until the person dismisses it (a message
 * that vanished on the next render would leave them wondering whether anything happened).
 */
export function useActionNotice() {
  const { t } = useMessages();
  const [said, setSaid] = useState<readonly string[]>();
  return {
    /** Says what happened: one sentence, or a sentence per thing done. */
    say: (...sentences: string[]) => setSaid(sentences.filter(Boolean)),
    dismiss: () => setSaid(undefined),
    notice: said && said.length > 0 && (
      <div class="notice done" role="status">
        {said.map((sentence) => (
          <p key={sentence}>{sentence}</p>
        ))}
        <button type="button" class="text-button" onClick={() => setSaid(undefined)}>
          {t('common.dismiss')}
        </button>
      </div>
    ),
  };
}
