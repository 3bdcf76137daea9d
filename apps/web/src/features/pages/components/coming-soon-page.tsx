import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { usePageTexts } from '../page-texts';

/** `/pages/coming-soon`: what a part of the site still being built shows. */
export function ComingSoonPage() {
  const { t } = usePageTexts();
  return (
    <div className="page coming-soon">
      <div className="card coming-soon__card">
        <Logo label="Reel Live" />
        <h1>{t('comingSoon.title')}</h1>
        <p className="muted">{t('comingSoon.body')}</p>
        <Link className="btn btn--primary" to={paths.lobby}>
          <Icon name="casino" size={20} />
          <span>{t('backToLobby')}</span>
        </Link>
      </div>
    </div>
  );
}
