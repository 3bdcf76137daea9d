import { useId, useState, type KeyboardEvent } from 'react';
import { usePageTexts } from '../page-texts';
import { GUIDE_SECTIONS, GuideSectionText, type GuideSection } from './player-guide';

/** What a `/ui/page-layouts/...` path asks for: carded or simple, a sidebar side, tabs; or blank. */
interface LayoutVariant {
  kind: 'carded' | 'simple' | 'blank';
  sidebar: 'left' | 'right' | null;
  tabbed: boolean;
}

function layoutVariant(pathname: string): LayoutVariant {
  const [kind = 'blank', variant = ''] = pathname.replace(/^\/ui\/page-layouts\/?/, '').split('/');
  return {
    kind: kind === 'carded' || kind === 'simple' ? kind : 'blank',
    sidebar: variant.startsWith('left-sidebar') ? 'left' : variant.startsWith('right-sidebar') ? 'right' : null,
    tabbed: variant.endsWith('tabbed'),
  };
}

/** Sections as tabs (arrow keys move between them, as a tab list does). */
function GuideTabs({ active, onSelect }: { active: GuideSection; onSelect: (section: GuideSection) => void }) {
  const { t } = usePageTexts();
  const id = useId();
  const move = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = GUIDE_SECTIONS[(index + step + GUIDE_SECTIONS.length) % GUIDE_SECTIONS.length]!;
    onSelect(next);
    document.getElementById(`${id}-${next}`)?.focus();
  };
  return (
    <>
      <div className="tabs" role="tablist" aria-label={t('ui.layouts.contents')}>
        {GUIDE_SECTIONS.map((section, index) => (
          <button
            key={section}
            id={`${id}-${section}`}
            type="button"
            role="tab"
            className="tabs__tab"
            aria-selected={section === active}
            aria-controls={`${id}-panel`}
            tabIndex={section === active ? 0 : -1}
            onClick={() => onSelect(section)}
            onKeyDown={(event) => move(event, index)}
          >
            {t(`guide.${section}.title`)}
          </button>
        ))}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${active}`} className="tabs__panel">
        <GuideSectionText section={active} />
      </div>
    </>
  );
}

function Sidebar({ onSelect }: { onSelect: (section: GuideSection) => void }) {
  const { t } = usePageTexts();
  return (
    <nav className="page-layout__sidebar" aria-label={t('ui.layouts.contents')}>
      <ul>
        {GUIDE_SECTIONS.map((section) => (
          <li key={section}>
            <a href={`#guide-${section}`} onClick={() => onSelect(section)}>
              {t(`guide.${section}.title`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** `/ui/page-layouts/*`: the page layouts the app can use, filled with the player guide. */
export function PageLayoutDemo({ pathname }: { pathname: string }) {
  const { t } = usePageTexts();
  const variant = layoutVariant(pathname);
  const [active, setActive] = useState<GuideSection>(GUIDE_SECTIONS[0]);
  const parts = [
    t(`ui.layouts.${variant.kind}`),
    variant.sidebar === 'left' ? t('ui.layouts.leftSidebar') : variant.sidebar === 'right' ? t('ui.layouts.rightSidebar') : variant.kind === 'blank' ? null : t('ui.layouts.fullWidth'),
    variant.tabbed ? t('ui.layouts.tabbed') : null,
  ].filter(Boolean);
  const title = t('ui.layouts.title', { name: parts.join(', ') });
  const content = variant.tabbed ? (
    <GuideTabs active={active} onSelect={setActive} />
  ) : (
    GUIDE_SECTIONS.map((section) => <GuideSectionText key={section} section={section} />)
  );

  if (variant.kind === 'blank') {
    return (
      <div className="page page-layout page-layout--blank">
        <h1 className="visually-hidden">{title}</h1>
        {content}
      </div>
    );
  }
  const body = (
    <div className={`page-layout__body${variant.sidebar ? ` page-layout__body--${variant.sidebar}` : ''}`}>
      {variant.sidebar ? <Sidebar onSelect={setActive} /> : null}
      <div className={`page-layout__content${variant.kind === 'carded' ? ' card' : ''}`}>{content}</div>
    </div>
  );
  return (
    <div className={`page page-layout page-layout--${variant.kind}`} data-layout={pathname.slice('/ui/page-layouts/'.length)}>
      <header className={`page__header${variant.kind === 'carded' ? ' page-layout__banner' : ''}`}>
        <h1>{title}</h1>
        <p className="muted">{t('ui.layouts.intro')}</p>
      </header>
      {body}
    </div>
  );
}
