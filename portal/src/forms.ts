import { useState } from 'preact/hooks';
import { useMessages } from './i18n/index.js';

/** The text a form's field holds ('' when it has none). */
export function fieldText(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
}

/**
 * A form whose answer is a mail on its way (forgotten password, sign-up, brand application): busy
 * while it is sent, the service's refusal in words, and the address the mail went to once sent.
 */
export function useMailingForm() {
  const { t } = useMessages();
  const [sentTo, setSentTo] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async (email: string, request: () => Promise<{ error?: { message: string } }>) => {
    setBusy(true);
    try {
      const result = await request();
      if (result.error) return setError(result.error.message);
    } catch {
      return setError(t('common.error', { message: 'network' }));
    } finally {
      setBusy(false);
    }
    setError('');
    setSentTo(email);
  };
  return { sentTo, error, busy, send };
}
