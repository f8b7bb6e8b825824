import { useMessages } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { fieldText } from '../forms.js';

/** The affiliate's sub-ids, sub1 … sub5: the names the API filters and breaks down by. */
export const SUB_IDS = ['sub1', 'sub2', 'sub3', 'sub4', 'sub5'] as const;
export type SubId = (typeof SUB_IDS)[number];
/** What each is called on a page ("Sub-ID 1" …, the trackers' term). */
export const SUB_ID_NAMES: Record<SubId, MessageKey> = { sub1: 'subIds.sub1', sub2: 'subIds.sub2', sub3: 'subIds.sub3', sub4: 'subIds.sub4', sub5: 'subIds.sub5' };

/** A filter by one sub-id: which one, and its exact value. */
export interface SubIdFilter {
  name: SubId | '';
  value: string;
}

/** The filter as the API takes it: `{ sub1: 'adset-7' }`, nothing without both parts. */
export const subIdQuery = (filter: SubIdFilter): Partial<Record<SubId, string>> => (filter.name && filter.value ? { [filter.name]: filter.value } : {});

/** The filter a form's picker holds (its fields are named subId and subIdValue). */
export function subIdFilterOf(form: HTMLFormElement): SubIdFilter {
  const name = fieldText(form, 'subId');
  return { name: (SUB_IDS as readonly string[]).includes(name) ? (name as SubId) : '', value: fieldText(form, 'subIdValue').trim() };
}

/** A sub-id picker inside a form: which Sub-ID, then the value (read with subIdFilterOf when the form is sent). */
export function SubIdPicker({ id, filter }: { id: string; filter: SubIdFilter }) {
  const { t } = useMessages();
  return (
    <>
      <div class="field">
        <label for={`${id}-sub-id`}>{t('subIds.which')}</label>
        <select id={`${id}-sub-id`} name="subId" defaultValue={filter.name}>
          <option value="">{t('subIds.any')}</option>
          {SUB_IDS.map((name) => (
            <option key={name} value={name}>
              {t(SUB_ID_NAMES[name])}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${id}-sub-id-value`}>{t('subIds.value')}</label>
        <input id={`${id}-sub-id-value`} name="subIdValue" type="text" maxLength={100} defaultValue={filter.value} />
      </div>
    </>
  );
}
