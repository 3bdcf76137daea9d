import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { containsActive, isUrlActive, type NavigationItem } from '@/config/navigation';

/** Spec section 9: 24 px for level 0, otherwise 40 + 16 per level, capped at 80. */
function nestedIndentPx(level: number): number {
  return level === 0 ? 24 : Math.min(40 + 16 * level, 80);
}

interface NavProps {
  item: NavigationItem;
  level: number;
  onItemClick?: () => void;
}

function ItemContent({ item }: { item: NavigationItem }) {
  const { t } = useTranslation();
  return (
    <>
      {item.icon ? <Icon name={item.icon} size={22} className="nav__icon" /> : null}
      <span className="nav__title">{t(item.title ?? '')}</span>
      {item.badge ? (
        <span className="nav__badge" style={{ background: item.badge.bg, color: item.badge.fg }}>
          {item.badge.title}
        </span>
      ) : null}
    </>
  );
}

function NavItem({ item, level, onItemClick }: NavProps) {
  const { pathname } = useLocation();
  const active = isUrlActive(item.url, pathname, item.exact);
  return (
    <li>
      <NavLink
        to={item.url ?? '/'}
        end={item.exact}
        className={`nav__item${active ? ' active' : ''}`}
        aria-current={active ? 'page' : undefined}
        style={{ paddingInlineStart: nestedIndentPx(level) }}
        onClick={onItemClick}
      >
        <ItemContent item={item} />
      </NavLink>
    </li>
  );
}

function NavLinkItem({ item, level, onItemClick }: NavProps) {
  const { t } = useTranslation();
  const target = item.target ?? '_blank';
  return (
    <li>
      <a
        href={item.url}
        target={target}
        rel={target === '_blank' ? 'noopener noreferrer' : undefined}
        className="nav__item"
        style={{ paddingInlineStart: nestedIndentPx(level) }}
        onClick={onItemClick}
      >
        <ItemContent item={item} />
        {target === '_blank' ? <span className="visually-hidden"> {t('nav.newTab')}</span> : null}
      </a>
    </li>
  );
}

function NavCollapse({ item, level, onItemClick }: NavProps) {
  const { pathname } = useLocation();
  const listId = useId();
  const [open, setOpen] = useState(() => containsActive(item, pathname));
  // Auto-expand when navigation lands inside the collapse.
  useEffect(() => {
    if (containsActive(item, pathname)) setOpen(true);
  }, [item, pathname]);
  return (
    <li>
      <button
        type="button"
        className={`nav__item nav__collapse${containsActive(item, pathname) ? ' nav__item--within' : ''}`}
        aria-expanded={open}
        aria-controls={listId}
        style={{ paddingInlineStart: nestedIndentPx(level) }}
        onClick={() => setOpen((value) => !value)}
      >
        <ItemContent item={item} />
        <Icon name="expand" size={20} className={`nav__arrow${open ? ' nav__arrow--open' : ''}`} />
      </button>
      <ul id={listId} className="nav__list" hidden={!open}>
        {(item.children ?? []).map((child) => (
          <NavEntry key={child.id} item={child} level={level + 1} onItemClick={onItemClick} />
        ))}
      </ul>
    </li>
  );
}

function NavGroup({ item, level, onItemClick }: NavProps) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <li className="nav__group">
      <span id={headingId} className="nav__group-title" style={{ paddingInlineStart: nestedIndentPx(level) }}>
        {t(item.title ?? '')}
      </span>
      <ul className="nav__list" aria-labelledby={headingId}>
        {(item.children ?? []).map((child) => (
          <NavEntry key={child.id} item={child} level={level} onItemClick={onItemClick} />
        ))}
      </ul>
    </li>
  );
}

function NavEntry(props: NavProps) {
  switch (props.item.type) {
    case 'group':
      return <NavGroup {...props} />;
    case 'collapse':
      return <NavCollapse {...props} />;
    case 'link':
      return <NavLinkItem {...props} />;
    case 'divider':
      return (
        <li className="nav__divider-item">
          <hr className="nav__divider" />
        </li>
      );
    default:
      return <NavItem {...props} />;
  }
}

export function Navigation({
  items,
  layout = 'vertical',
  onItemClick,
  label,
}: {
  items: readonly NavigationItem[];
  layout?: 'vertical' | 'horizontal';
  onItemClick?: () => void;
  label: string;
}) {
  // Horizontal navigation shows a group's children in one row.
  const entries =
    layout === 'horizontal'
      ? items.flatMap((item) => (item.type === 'group' ? (item.children ?? []) : [item]))
      : items;
  return (
    <nav className={`nav nav--${layout}`} aria-label={label}>
      <ul className="nav__list">
        {entries.map((item) => (
          <NavEntry key={item.id} item={item} level={0} onItemClick={onItemClick} />
        ))}
      </ul>
    </nav>
  );
}
