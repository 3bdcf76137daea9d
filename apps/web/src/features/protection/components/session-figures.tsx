import { useTranslation } from 'react-i18next';
import { formatDuration } from '@/lib/duration';

interface SessionFiguresValues {
  elapsedS: number;
  spins: number;
  moneyInCents: number;
  moneyOutCents: number;
  netCents: number;
}

/** A session's figures as the reality check and the closing summary show them (issue 28). */
export function SessionFigures({ figures, money, testId }: { figures: SessionFiguresValues; money: (cents: number) => string; testId: string }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t('protection.realityElapsed'), formatDuration(figures.elapsedS)],
    [t('protection.realitySpins'), String(figures.spins)],
    [t('protection.realityMoneyIn'), money(figures.moneyInCents)],
    [t('protection.realityMoneyOut'), money(figures.moneyOutCents)],
    [t('protection.realityNet'), money(figures.netCents)],
  ];
  return (
    <dl className="details" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label} className="details__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
