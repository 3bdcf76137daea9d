import type { ReactNode } from 'react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { translateCode } from '@/lib/i18n';
import { useMoney } from '@/lib/use-money';
import { VideoStatus } from '@/lib/video';
import { useWatch } from '../hooks/use-watch';
import { useWatchVideo } from '../hooks/use-watch-video';
import '../watch.css';

/**
 * `/watch/:id/:name`: a machine someone plays, as a spectator sees it — the live video (no controls,
 * no money of anyone's), the machine's name, how many watch, and its games as they happen.
 * `queueSlot`: where the queue's "Join queue" goes (features/queue hands it in through the route).
 */
export function WatchPage({ queueSlot }: { queueSlot?: ReactNode }) {
  const { t } = useTranslation();
  const money = useMoney();
  const params = useParams();
  const machineId = Number(params.id);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const { state, channel } = useWatch(machineId);
  const status = useWatchVideo(videoRef, channel, state.firstGrant);
  const title = state.name ?? decodeURIComponent(params.name ?? '').replace(/-/g, ' ');

  return (
    <main className="watch" data-machine-id={machineId}>
      <header className="watch__bar">
        <Link className="btn btn--ghost btn--small" to={paths.lobby}>
          <Icon name="back" size={18} className="flip-rtl" />
          <span>{t('game.backToLobby')}</span>
        </Link>
        <h1 className="watch__title" dir="auto">
          {title}
        </h1>
        <p className="watch__count" data-testid="watcher-count" aria-live="polite">
          <Icon name="visibility" size={18} />
          <span>{t('watch.watchers', { count: state.watchers })}</span>
        </p>
      </header>
      {state.refusal ? (
        <p className="watch__refusal" role="alert" data-code={state.refusal.code}>
          {translateCode(state.refusal.code, state.refusal.params)}
        </p>
      ) : (
        <div className="watch__stage">
          {/* No controls: a spectator only watches. Muted so it may start without a gesture. */}
          <video ref={videoRef} className="watch__video" data-testid="watch-video" muted autoPlay playsInline disablePictureInPicture />
          {status !== VideoStatus.Connected ? <p className="watch__status">{state.lost ? t('common.connectionLost') : t('common.loading')}</p> : null}
        </div>
      )}
      <section className="watch__side" aria-label={t('watch.plays')}>
        <h2>{t('watch.plays')}</h2>
        {state.plays.length === 0 ? (
          <p className="watch__empty">{t('watch.noPlays')}</p>
        ) : (
          <ol className="watch__plays" data-testid="watch-plays">
            {state.plays.map((p) => (
              <li key={p.gameId} className={p.winCents > 0 ? 'watch__play watch__play--win' : 'watch__play'}>
                <span>{t('watch.bet', { amount: money(p.betCents) })}</span>
                <span>{p.winCents > 0 ? t('watch.win', { amount: money(p.winCents) }) : t('watch.noWin')}</span>
                {p.freeSpin ? <span>{t('watch.freeSpin')}</span> : null}
                {p.jackpotHit ? <span>{t('watch.jackpot')}</span> : null}
              </li>
            ))}
          </ol>
        )}
        <div className="watch__queue-slot" data-slot="join-queue">
          {queueSlot}
        </div>
      </section>
    </main>
  );
}
