import type { GameCycleView, SessionView } from '@reel/protocol/client';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatElapsed } from '../game-rules';

function useElapsed(startedAt: string | undefined): string {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const startedMs = startedAt ? Date.parse(startedAt) : NaN;
  return Number.isNaN(startedMs) ? '0:00' : formatElapsed(nowMs - startedMs);
}

/** Balance, credits and the last outcome: always on screen (responsible gaming). */
export function Meters({
  wallet,
  creditsCents,
  lastCycle,
  freeSpinsLeft,
  money,
}: {
  wallet: ReactNode;
  creditsCents: number | null;
  lastCycle: GameCycleView | null;
  freeSpinsLeft: number;
  money: (cents: number) => string;
}) {
  const { t } = useTranslation();
  const won = lastCycle !== null && lastCycle.winCents > 0;
  return (
    <div className="meters">
      <div className="meter">
        <span className="meter__label">{t('game.balance')}</span>
        <span className="meter__value">{wallet}</span>
      </div>
      <div className="meter meter--credits">
        <span className="meter__label">{t('game.credits')}</span>
        <strong className="meter__value" data-testid="machine-credits">
          {creditsCents === null ? '—' : money(creditsCents)}
        </strong>
      </div>
      <div className={`meter meter--outcome${won ? ' meter--won' : ''}`} aria-live="polite">
        <span className="meter__label">{freeSpinsLeft > 0 ? t('game.freeSpinsLeft', { count: freeSpinsLeft }) : t('game.lastSpin')}</span>
        <strong className="meter__value" data-testid="last-outcome">
          {lastCycle === null ? '—' : won ? t('game.winAmount', { amount: money(lastCycle.winCents) }) : t('game.noWin')}
        </strong>
      </div>
    </div>
  );
}

/** The session's net position, time played and counts. */
export function SessionFacts({ session, money, compact }: { session: SessionView | null; money: (cents: number) => string; compact?: boolean }) {
  const { t } = useTranslation();
  const elapsed = useElapsed(session?.startedAt);
  const net = session?.netCents ?? 0;
  const netText = `${net > 0 ? '+' : ''}${money(net)}`;
  return (
    <dl className={`facts${compact ? ' facts--compact' : ''}`}>
      <div className="facts__item">
        <dt>{t('game.net')}</dt>
        <dd className={net > 0 ? 'facts__up' : net < 0 ? 'facts__down' : undefined} data-testid={compact ? 'session-net' : undefined}>
          {netText}
        </dd>
      </div>
      <div className="facts__item">
        <dt>{t('game.elapsed')}</dt>
        <dd data-testid={compact ? 'session-elapsed' : undefined}>{elapsed}</dd>
      </div>
      <div className="facts__item">
        <dt>{t('game.spins')}</dt>
        <dd data-testid={compact ? 'session-spins' : undefined}>{session?.spins ?? 0}</dd>
      </div>
      {compact ? null : (
        <>
          <div className="facts__item">
            <dt>{t('game.cashedInTotal')}</dt>
            <dd>{money(session?.cashInCents ?? 0)}</dd>
          </div>
          <div className="facts__item">
            <dt>{t('game.cashedOutTotal')}</dt>
            <dd>{money(session?.cashOutCents ?? 0)}</dd>
          </div>
        </>
      )}
    </dl>
  );
}
