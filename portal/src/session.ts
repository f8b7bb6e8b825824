// Who is signed in: GET /session, shared by every page through TanStack Query. A 401 anywhere
// means the session ended, and the app shows the sign-in page.
import { useQuery } from '@tanstack/react-query';
import { api, ApiFailure, ok, setCsrfToken } from './api.js';
import type { components } from '../../packages/client/index.js';

export type User = components['schemas']['User'];

export const SESSION_KEY = ['session'] as const;

export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      const result = await api.GET('/session');
      if (result.response.status === 401) return null;
      const session = ok(result).data;
      setCsrfToken(session.csrfToken);
      return session;
    },
    staleTime: 60_000,
  });
}

/** Keeps the person's language with them; the session's answer carries it from then on. */
export async function saveLanguage(language: 'en' | 'pt-BR'): Promise<void> {
  await api.PATCH('/session', { body: { language } });
}

export const isSignedOut = (error: unknown): boolean => error instanceof ApiFailure && error.status === 401;
