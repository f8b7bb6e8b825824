import { Link } from 'wouter-preact';
import { useMessages } from '../../i18n/index.js';
import { AFFILIATE_TOOLS } from '../../components/layout.js';
import type { User } from '../../session.js';

/** The affiliate's pages beside the everyday ones, in groups, each with what it is for (API keys are an owner's). */
export function Tools({ me }: { me: User }) {
  const { t } = useMessages();
  return (
    <>
      <h1>{t('tools.title')}</h1>
      <p class="hint">{t('tools.hint')}</p>
      {AFFILIATE_TOOLS.map(([group, pages]) => (
        <section key={group} class="tools" aria-labelledby={`tools-${group}`}>
          <h2 id={`tools-${group}`}>{t(group)}</h2>
          <ul>
            {pages
              .filter(([path]) => path !== '/keys' || me.role === 'owner')
              .map(([path, name, hint]) => (
                <li key={path}>
                  <Link href={path}>{t(name)}</Link>
                  <span class="hint">{t(hint)}</span>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}
