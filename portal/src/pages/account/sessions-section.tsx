import { useState } from 'preact/hooks';
import { deviceParts } from '../../../../src/lib/device-words.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';

const SESSIONS_KEY = ['session', 'sessions'] as const;

/** A country's name in the portal's language; ZZ (unknown) said so. */
function countryName(code: string, locale: string, unknown: string): string {
  if (code === 'ZZ') return unknown;
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Where the person is signed in: each session's device, country and last use; sign one out, or every other. */
export function SessionsSection() {
  const { t, dateTime, locale, refusal } = useMessages();
  /** "Chrome on Linux" as the service names it, in the page's language. */
  const deviceName = (device: string) => {
    const parts = deviceParts(device);
    if (!parts) return t('sessions.unknownDevice');
    const named = t('sessions.deviceOn', { browser: parts.browser, os: parts.os });
    return parts.kind ? t('sessions.deviceKind', { device: named, kind: t(`sessions.kind.${parts.kind}`) }) : named;
  };
  const queries = useQueryClient();
  const [signedOut, setSignedOut] = useState<number>();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: async () => ok(await api.GET('/session/sessions')).data });
  const refresh = () => void queries.invalidateQueries({ queryKey: SESSIONS_KEY });
  const signOutOne = useMutation({
    mutationFn: async (id: string) => ok(await api.DELETE('/session/sessions/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const signOutOthers = useMutation({
    mutationFn: async () => ok(await api.POST('/session/sessions/sign-out-others')).data,
    onSuccess: (data) => {
      setSignedOut(data.signedOut);
      refresh();
    },
  });
  const failure = signOutOne.error ?? signOutOthers.error;
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('sessions.title')}</h2>
      <p>{t('sessions.intro')}</p>
      {failure && <p role="alert" class="error">{refusal(failure)}</p>}
      {signedOut !== undefined && <p role="status">{t('sessions.signedOutOthers', { count: signedOut })}</p>}
      <QueryState query={sessions}>
        {(list) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('sessions.device')}</th>
                  <th scope="col">{t('sessions.country')}</th>
                  <th scope="col">{t('sessions.lastSeen')}</th>
                  <th scope="col">
                    <span class="visually-hidden">{t('sessions.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((session) =>
                  session.viewedByNetwork ? (
                    // The network's support viewing the account, read-only: never who, always why and until when.
                    <tr key={session.id} class="network-view">
                      <th scope="row">
                        {t('sessions.networkView')}
                        {session.reason && <span class="note hint">{t('sessions.networkViewReason', { reason: session.reason })}</span>}
                        {session.expiresAt && <span class="note hint">{t('sessions.networkViewUntil', { at: dateTime(session.expiresAt) })}</span>}
                      </th>
                      <td>—</td>
                      <td>{dateTime(session.lastSeenAt)}</td>
                      <td class="actions">
                        <button type="button" class="danger" aria-label={t('sessions.endViewNamed', { at: dateTime(session.expiresAt ?? session.lastSeenAt) })} onClick={() => signOutOne.mutate(session.id)}>
                          {t('sessions.endView')}
                        </button>
                      </td>
                    </tr>
                  ) : (
                  <tr key={session.id}>
                    <th scope="row">
                      {deviceName(session.device)} {session.current && <span class="badge approved">{t('sessions.thisDevice')}</span>}
                    </th>
                    <td>
                      {countryName(session.country, locale, t('sessions.unknownCountry'))}
                      {session.address && <span class="muted"> · {session.address}</span>}
                    </td>
                    <td>{dateTime(session.lastSeenAt)}</td>
                    <td class="actions">
                      {!session.current && (
                        <button type="button" class="danger" aria-label={t('sessions.signOutNamed', { device: deviceName(session.device), when: dateTime(session.lastSeenAt) })} onClick={() => signOutOne.mutate(session.id)}>
                          {t('sessions.signOut')}
                        </button>
                      )}
                    </td>
                  </tr>
                  ),
                )}
              </tbody>
            </table>
            {list.some((session) => !session.current) ? (
              <button type="button" class="danger" onClick={() => signOutOthers.mutate()}>
                {t('sessions.signOutOthers')}
              </button>
            ) : (
              <p>{t('sessions.onlyThis')}</p>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
