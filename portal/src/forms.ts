import { useState } from 'preact/hooks';
import { useMessages } from './i18n/index.js';
import { ApiFailure } from './api.js';
import type { ApiError } from '../../packages/client/index.js';

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
  const messages = useMessages();
  const { t } = messages;
  const [sentTo, setSentTo] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async (email: string, request: () => Promise<{ error?: ApiError }>) => {
    setBusy(true);
    try {
      const result = await request();
      if (result.error) return setError(messages.refusal(new ApiFailure(result.error.statusCode, result.error)));
    } catch {
      return setError(t('common.unreachable'));
    } finally {
      setBusy(false);
    }
    setError('');
    setSentTo(email);
  };
  return { sentTo, error, busy, send };
}
