import { useMessages } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';

export type Rating = Partial<Record<'approval' | 'commission' | 'conversion' | 'popularity' | 'validation', number>>;
/** The five scores in the order they are shown, with their labels. */
export const SCORE_NAMES: ReadonlyArray<[keyof Rating, MessageKey]> = [
  ['approval', 'scores.approval'],
  ['commission', 'scores.commission'],
  ['conversion', 'scores.conversion'],
  ['popularity', 'scores.popularity'],
  ['validation', 'scores.validation'],
];

/** A brand's network scores (0 to 5), each one it has; none yet: says so rather than showing zeros. */
export function BrandScores({ rating }: { rating: Rating }) {
  const { t, number } = useMessages();
  const present = SCORE_NAMES.filter(([name]) => rating[name] !== undefined);
  if (present.length === 0) return <span class="hint">{t('scores.notEnoughData')}</span>;
  return (
    <dl class="scores">
      {present.map(([name, label]) => (
        <div key={name}>
          <dt>{t(label)}</dt>
          <dd>{number(rating[name]!)}</dd>
        </div>
      ))}
    </dl>
  );
}
