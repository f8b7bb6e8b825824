import { Fragment } from 'preact';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, ok } from '../../api.js';
import { useMessages } from '../../i18n/index.js';
import { QueryState } from '../../components/query-state.js';
import { SCORE_NAMES } from '../../components/brand-scores.js';
import { useConditionTexts, useOutcomeText } from '../../components/commission-rule-text.js';
import type { paths } from '../../../../packages/client/index.js';
import { refuses, useKindName } from './links.js';
import { useTermsLoweringText } from '../../components/terms-lowering.js';

type Terms = paths['/affiliate/brands/{id}/commission-rules']['get']['responses'][200]['content']['application/json']['data'];

/** A brand's rules in the order they are tried, the default rule last: those in force, or the upcoming ones. */
function RulesList({ terms, currency }: { terms: Pick<Terms, 'rules' | 'default'>; currency: string }) {
  const { t } = useMessages();
  const conditionsOf = useConditionTexts();
  const outcomeOf = useOutcomeText();
  return (
    <ol class="rules">
      {terms.rules.map((rule, i) => (
        <li key={i} data-testid="brand-rule">
          <strong>{rule.name ?? t('explain.rule', { n: i + 1 })}</strong>
          <ul>
            {conditionsOf(rule, currency).map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
          <p>{t('brand.pays', { what: outcomeOf(rule, currency) })}</p>
        </li>
      ))}
      <li data-testid="brand-rule-default">
        <strong>{t('explain.defaultRule')}</strong>
        <ul>
          <li>{terms.rules.length === 0 ? t('rules.whenAlways') : t('rules.whenNoOther')}</li>
        </ul>
        <p>{t('brand.pays', { what: outcomeOf(terms.default, currency) })}</p>
      </li>
    </ol>
  );
}

/** One brand an affiliate may work with: what it is, and how it pays (its commission rules in force, as the affiliate may read them). */
export function BrandDetail({ id }: { id: string }) {
  const { t, date, money, number } = useMessages();
  const loweringText = useTermsLoweringText();
  const kindName = useKindName();
  const brand = useQuery({
    queryKey: ['brand', id],
    queryFn: async () => ok(await api.GET('/affiliate/brands/{id}', { params: { path: { id } } })).data,
  });
  const rules = useQuery({
    queryKey: ['brand-commission-rules', id],
    queryFn: async () => ok(await api.GET('/affiliate/brands/{id}/commission-rules', { params: { path: { id } } })).data,
  });
  return (
    <>
      <p>
        <Link href="/brands">{t('brand.back')}</Link>
      </p>
      <QueryState query={brand}>
        {(b) => (
          <>
            <h1>{b.name}</h1>
            <dl class="facts" data-testid="brand-facts">
              <dt>{t('brand.site')}</dt>
              <dd class="wrap">
                <a href={b.site} rel="noopener noreferrer" target="_blank">
                  {b.site}
                </a>
              </dd>
              <dt>{t('brand.segment')}</dt>
              <dd>{b.segment}</dd>
              {b.categories.length > 0 && (
                <>
                  <dt>{t('brands.category')}</dt>
                  <dd>{b.categories.join(', ')}</dd>
                </>
              )}
              <dt>{t('brands.access')}</dt>
              <dd>{b.network.isPublic ? t('brands.public') : t('brands.approved')}</dd>
              <dt>{t('brand.currency')}</dt>
              <dd>{b.currency}</dd>
            </dl>
            <p>
              <Link href={`/links?brand=${encodeURIComponent(b.id)}`}>{t('brands.makeLink')}</Link>
            </p>
            <section aria-labelledby="brand-channels-title" data-testid="brand-channels">
              <h2 id="brand-channels-title">{t('brand.channelsTitle')}</h2>
              <p>{b.allowedChannels ? t('brand.accepts', { kinds: b.allowedChannels.map((kind) => kindName({ id: kind, name: kind })).join(', ') }) : t('brand.acceptsEvery')}</p>
              {b.channels.some((channel) => refuses(b, channel.availableChannel.id)) ? (
                <>
                  <p>{t('brand.refusedChannels')}</p>
                  <ul>
                    {b.channels
                      .filter((channel) => refuses(b, channel.availableChannel.id))
                      .map((channel) => (
                        <li key={channel.id} data-testid="refused-channel">
                          {channel.name}: {t('links.kindRefused', { kind: kindName(channel.availableChannel) })}
                        </li>
                      ))}
                  </ul>
                </>
              ) : (
                b.channels.length > 0 && <p class="hint">{t('brand.allAccepted')}</p>
              )}
            </section>
            <section aria-labelledby="brand-scores-title" data-testid="brand-scores">
              <h2 id="brand-scores-title">{t('brand.scoresTitle')}</h2>
              <p class="hint">{t('brand.scoresHint')}</p>
              {SCORE_NAMES.every(([name]) => b.network.rating[name] === undefined) ? (
                <p>{t('scores.notEnoughData')}</p>
              ) : (
                <dl class="facts amounts narrow">
                  {SCORE_NAMES.filter(([name]) => b.network.rating[name] !== undefined).map(([name, label]) => (
                    <Fragment key={name}>
                      <dt>{t(label)}</dt>
                      <dd>{t('brand.outOfFive', { score: number(b.network.rating[name]!) })}</dd>
                    </Fragment>
                  ))}
                  {b.network.epc !== undefined && (
                    <>
                      <dt>{t('brand.epc')}</dt>
                      <dd>{money(b.network.epc, b.currency)}</dd>
                    </>
                  )}
                  {b.network.medianDaysToDecision !== undefined && (
                    <>
                      <dt>{t('brand.medianDays')}</dt>
                      <dd>{t('brand.days', { days: b.network.medianDaysToDecision })}</dd>
                    </>
                  )}
                </dl>
              )}
            </section>
          </>
        )}
      </QueryState>
      <section aria-labelledby="brand-rules-title" data-testid="brand-rules">
        <h2 id="brand-rules-title">{t('brand.rulesTitle')}</h2>
        <QueryState query={rules}>
          {(r) => {
            const currency = brand.data?.currency ?? 'USD';
            return (
              <>
                {r.upcoming && (
                  <div class="notice" role="note" data-testid="brand-upcoming">
                    <p>
                      <strong>{t('brand.upcomingTitle', { date: date(r.upcoming.effectiveAt) })}</strong> {t('brand.upcomingHint', { why: loweringText(r.upcoming.lowering, currency) })}
                    </p>
                    <RulesList terms={r.upcoming} currency={currency} />
                  </div>
                )}
                <p class="hint">
                  {r.version === 0 ? t('brand.rulesNone') : t('brand.rulesHint', { version: r.version, date: date(r.effectiveAt ?? r.savedAt ?? '') })}
                </p>
                <RulesList terms={r} currency={currency} />
              </>
            );
          }}
        </QueryState>
      </section>
    </>
  );
}
