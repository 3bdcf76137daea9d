import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { messageForError } from '@/lib/auth';
import { useLimits } from '../api/protection-api';
import { BreakSection } from './break-section';
import { LimitRow } from './limit-row';
import { RealityCheckSetting } from './reality-check-setting';

/** The player's own protection tools (issue 28), under the profile. */
export function ProtectionPage() {
  const { t } = useTranslation();
  const settings = useRuntimeSettings((state) => state.settings);
  const limits = useLimits();
  const data = limits.data;
  return (
    <div className="page protection">
      <header className="page__header">
        <h1>{t('protection.title')}</h1>
        <p className="muted">
          <Link to={paths.profile}>{t('protection.backToProfile')}</Link>
        </p>
      </header>
      {limits.isPending ? <Spinner label={t('common.loading')} /> : null}
      {limits.isError ? (
        <div className="card" role="alert">
          <p>{messageForError(limits.error)}</p>
          <Button variant="secondary" onClick={() => void limits.refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      ) : null}
      {data ? (
        <>
          <h2>{t('protection.limitsTitle')}</h2>
          <p className="muted">{t('protection.limitsIntro', { hours: data.increaseDelayH })}</p>
          <div className="protection__grid">
            {data.limits.map((limit) => (
              <LimitRow key={limit.key} limit={limit} currency={settings.CURRENCY} locale={settings.LOCALE} />
            ))}
          </div>
          <RealityCheckSetting minutes={data.realityCheckMinutes} />
        </>
      ) : null}
      <BreakSection />
    </div>
  );
}
