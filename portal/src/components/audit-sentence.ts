// An audit entry as a sentence in the person's language: who (a person's e-mail, a key's name, or
// the kind of actor a member may know), what they did, to which order, member or statement, by the
// names the service sent with the entry. An action the portal has no sentence for still reads as
// a sentence, naming the action.
import { useMessages } from '../i18n/index.js';
import type { components } from '../../../packages/client/index.js';

type Entry = components['schemas']['AuditEntry'];

export function useAuditSentence(): (entry: Entry) => string {
  const { t, has, month } = useMessages();
  return (entry) => {
    const names = entry.names ?? {};
    const who = entry.actor.id
      ? entry.actor.id.startsWith('key_')
        ? t('audit.who.key', { name: names.actor ?? entry.actor.id })
        : (names.actor ?? entry.actor.id)
      : t(`audit.who.${entry.actor.kind}`);
    const actor = entry.actor.actingAs ? t('audit.who.actingAs', { who, member: entry.actor.actingAs }) : who;
    const values = {
      actor,
      // A statement is named by its month, in words.
      subject: entry.subject.kind === 'statement' && names.subject ? month(names.subject) : (names.subject ?? entry.subject.id.slice(0, 8)),
      brand: names.brand ?? entry.brandId ?? '—',
      affiliate: names.affiliate ?? entry.affiliateId ?? '—',
    };
    const key = `audit.did.${entry.action}`;
    return has(key) ? t(key, values) : t('audit.did.other', { ...values, action: entry.action });
  };
}
