import { useMessages } from '../../i18n/index.js';
import type { User } from '../../session.js';
import { TotpSection } from './totp-section.js';
import { RecoveryCodesSection } from './recovery-codes-section.js';
import { PasskeysSection } from './passkeys-section.js';
import { TeamFactorSection } from './team-factor-section.js';
import { SessionsSection } from './sessions-section.js';
import { useSecondFactors } from './second-factors-data.js';

/** The person's own security, one section per topic: second factors, their sessions, and for an owner whether the team requires a second factor. */
export function Security({ me }: { me: User }) {
  const { t } = useMessages();
  const status = useSecondFactors();
  return (
    <>
      <h1>{t('security.title')}</h1>
      {status.data?.enrolmentRequired && <p role="alert" class="error">{t('security.required')}</p>}
      <TotpSection />
      <RecoveryCodesSection />
      <PasskeysSection />
      <SessionsSection />
      {me.role === 'owner' && <TeamFactorSection side={me.affiliateId ? 'affiliate' : 'brand'} />}
    </>
  );
}
