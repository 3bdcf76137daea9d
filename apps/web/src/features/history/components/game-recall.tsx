import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { messageForError } from '@/lib/auth';
import { formatDateTime } from '@/lib/i18n';
import { toast } from '@/lib/toast-store';
import { useMoney } from '@/lib/use-money';
import { downloadSessionGames, useGameRecall } from '../api/game-recall';
import { RecalledReels } from './recalled-reels';

/**
 * The game recall (issue 28): the session's last 10 games from the server's records, newest first,
 * each with the reels as they landed, the lines won and the credits before and after.
 */
export function GameRecall({ sessionId, version }: { sessionId: string; version?: string | number }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const recall = useGameRecall(sessionId, version);
  const games = recall.data?.games ?? [];
  const download = () => void downloadSessionGames(sessionId).catch((error) => toast.error(messageForError(error)));
  return (
    <section className="recall" aria-label={t('history.recall.title')}>
      <div className="recall__head">
        <h3>{t('history.recall.title')}</h3>
        <Button variant="ghost" icon="download" onClick={download}>
          {t('history.recall.csv')}
        </Button>
      </div>
      {recall.isPending ? <Spinner label={t('common.loading')} /> : null}
      {recall.isError ? <p role="alert">{messageForError(recall.error)}</p> : null}
      {recall.isSuccess && games.length === 0 ? <p className="muted">{t('history.recall.none')}</p> : null}
      <ol className="recall__list">
        {games.map((game) => (
          <li key={game.time + game.creditsBeforeCents} className="recall__game" data-testid="recalled-game">
            <RecalledReels symbols={game.symbols} label={t('history.recall.reels')} />
            <dl className="recall__facts">
              <dt>{t('history.recall.time')}</dt>
              <dd>{formatDateTime(game.time, i18n.language)}</dd>
              <dt>{t('history.recall.bet')}</dt>
              <dd>{money(game.betCents)}</dd>
              <dt>{t('history.recall.win')}</dt>
              <dd data-testid="recalled-win">{money(game.winCents)}</dd>
              <dt>{t('history.recall.credits')}</dt>
              <dd>
                {money(game.creditsBeforeCents)} → {money(game.creditsAfterCents)}
              </dd>
              {game.lineWins.length ? (
                <>
                  <dt>{t('history.recall.lines')}</dt>
                  <dd>
                    {game.lineWins
                      .map((w) => t('history.recall.line', { line: w.line + 1, count: w.count, symbol: w.symbol, amount: money(w.winCents) }))
                      .join(', ')}
                  </dd>
                </>
              ) : null}
              {game.freeSpin || game.jackpot ? (
                <>
                  <dt>{t('history.recall.extras')}</dt>
                  <dd>{[game.freeSpin ? t('history.recall.freeSpin') : '', game.jackpot ? t('history.recall.jackpot') : ''].filter(Boolean).join(', ')}</dd>
                </>
              ) : null}
            </dl>
          </li>
        ))}
      </ol>
    </section>
  );
}
