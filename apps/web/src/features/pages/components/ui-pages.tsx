import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, ICON_NAMES } from '@/components/ui/icon';
import { TextField } from '@/components/ui/text-field';
import { useMoney } from '@/lib/use-money';
import { usePageTexts } from '../page-texts';

/** `/ui/icons`: every icon of the app, by name, with a filter. */
export function IconsPage() {
  const { t } = usePageTexts();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = ICON_NAMES.filter((name) => name.toLowerCase().includes(needle));
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('ui.icons.title')}</h1>
        <p className="muted">{t('ui.icons.intro', { count: ICON_NAMES.length })}</p>
      </header>
      <TextField label={t('ui.icons.filter')} type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
      <ul className="icon-grid">
        {shown.map((name) => (
          <li key={name} className="icon-grid__item">
            <Icon name={name} size={32} />
            <code>{name}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** `/ui/typography`: the type scale, text styles and money format the app uses. */
export function TypographyPage() {
  const { t } = usePageTexts();
  const { i18n } = useTranslation();
  const money = useMoney();
  return (
    <div className="page typography">
      <header className="page__header">
        <h1>{t('ui.typography.title')}</h1>
        <p className="muted">{t('ui.typography.intro')}</p>
      </header>
      <section className="card" aria-labelledby="type-headings">
        <h2 id="type-headings" className="card__title">
          {t('ui.typography.headings')}
        </h2>
        {/* Shown, not part of the page's outline. */}
        <div aria-hidden="true" className="typography__samples">
          <p className="typography__h1">{t('ui.typography.heading', { level: 1 })}</p>
          <p className="typography__h2">{t('ui.typography.heading', { level: 2 })}</p>
          <p className="typography__h3">{t('ui.typography.heading', { level: 3 })}</p>
        </div>
      </section>
      <section className="card" aria-labelledby="type-body">
        <h2 id="type-body" className="card__title">
          {t('ui.typography.body')}
        </h2>
        <p>{t('ui.typography.bodySample')}</p>
        <p className="muted">{t('ui.typography.muted')}</p>
        <p className="small">{t('ui.typography.small')}</p>
      </section>
      <section className="card" aria-labelledby="type-money">
        <h2 id="type-money" className="card__title">
          {t('ui.typography.money')}
        </h2>
        <p className="typography__money">{money(123_456)}</p>
        <p>
          {t('ui.typography.numbers')}: {new Intl.NumberFormat(i18n.language).format(1234567.89)}
        </p>
        <p>
          {t('ui.typography.code')}: <code>GET /api/player/balance</code>
        </p>
      </section>
    </div>
  );
}

/** Each shared class with how its sample is shown (by default: the description wearing the class). */
const HELPERS: { className: string; key: string; sample?: (text: string, hidden: string) => ReactNode }[] = [
  { className: 'muted', key: 'muted' },
  { className: 'small', key: 'small' },
  { className: 'text-accent', key: 'textAccent' },
  { className: 'text-warning', key: 'textWarning' },
  { className: 'center-text', key: 'centerText' },
  {
    className: 'visually-hidden',
    key: 'visuallyHidden',
    sample: (text, hidden) => (
      <>
        {text} <span className="visually-hidden">{hidden}</span>
      </>
    ),
  },
  { className: 'card', key: 'card', sample: (text) => <div className="card">{text}</div> },
  {
    className: 'badge',
    key: 'badge',
    sample: (text) => (
      <>
        <span className="badge">3</span> {text}
      </>
    ),
  },
];

/** `/ui/helper-classes`: the small CSS classes the screens share, each with its effect. */
export function HelperClassesPage() {
  const { t } = usePageTexts();
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('ui.helpers.title')}</h1>
        <p className="muted">{t('ui.helpers.intro')}</p>
      </header>
      <dl className="helpers">
        {HELPERS.map(({ className, key, sample }) => (
          <div key={className} className="helpers__row">
            <dt>
              <code>.{className}</code>
            </dt>
            {sample ? (
              <dd>{sample(t(`ui.helpers.${key}`), t('ui.helpers.hiddenSample'))}</dd>
            ) : (
              <dd className={className}>{t(`ui.helpers.${key}`)}</dd>
            )}
          </div>
        ))}
      </dl>
    </div>
  );
}
