import { useMessages } from '../../i18n/index.js';
import { SessionsSection } from './sessions-section.js';

/** The account's security: one section per topic (the sessions for now), each its own component. */
export function Security() {
  const { t } = useMessages();
  return (
    <>
      <h1>{t('security.title')}</h1>
      <SessionsSection />
    </>
  );
}
