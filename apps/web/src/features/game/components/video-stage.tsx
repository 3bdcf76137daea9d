import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { translateCode } from '@/lib/i18n';
import { VideoStatus } from '@/lib/video';
import { LatencyQuality, latencyQuality } from '../game-rules';
import type { LiveVideo } from '../hooks/use-live-video';

interface VideoStageProps {
  videoRef: React.RefObject<HTMLVideoElement | null>;
  video: LiveVideo;
  name: string;
  muted: boolean;
  cutScreen: boolean;
  onUnmute: () => void;
  /** The last spin's win, shown over the reels for a moment. */
  winCents: number | null;
  money: (cents: number) => string;
  channelNotice: string | null;
  /** Catalogue code while the machine's video cannot start (MachineView.videoError), else null. */
  unavailableCode?: number | null;
  onBackToLobby?: () => void;
  leaving?: boolean;
}

export function VideoStage(props: VideoStageProps) {
  const { videoRef, video, name, muted, cutScreen, onUnmute, winCents, money, channelNotice } = props;
  const { t } = useTranslation();
  const unavailable = props.unavailableCode ?? null;
  const up = unavailable === null && video.status === VideoStatus.Connected && video.firstFrameMs !== null;
  // A degraded link (freeze, loss, jitter, long round trip) never shows as good, whatever the delay.
  const measured = video.latencyMs === null ? null : latencyQuality(video.latencyMs);
  const quality = video.degraded ? LatencyQuality.Poor : measured;
  const pathTitle =
    video.rttMs === null
      ? t('game.latencyUnknown')
      : t('game.linkDetail', { rtt: Math.round(video.rttMs), jitter: Math.round(video.jitterMs ?? 0) });
  const statusText =
    unavailable !== null || video.status === VideoStatus.Failed
      ? t('game.videoFailed')
      : video.status === VideoStatus.Reconnecting
        ? t('game.videoReconnecting')
        : t('game.videoConnecting');
  return (
    <div className={`stage${cutScreen ? ' stage--cut' : ''}`} data-video-status={unavailable !== null ? 'unavailable' : video.status}>
      <div className="stage__frame">
        <video
          ref={videoRef}
          className="stage__video"
          muted={muted}
          autoPlay
          playsInline
          aria-label={t('game.video', { name })}
          data-testid="game-video"
        />
        <div className="stage__hud">
          <span className={`live-pill${up ? ' live-pill--on' : ''}`} role="status" data-testid="video-state">
            <span className="live-pill__dot" aria-hidden="true" />
            {up ? 'LIVE' : statusText}
          </span>
          {up ? (
            <span
              className={`latency latency--${quality ?? 'unknown'}`}
              data-testid="latency"
              data-quality={quality ?? 'unknown'}
              data-rtt-ms={video.rttMs === null ? undefined : Math.round(video.rttMs)}
              data-jitter-ms={video.jitterMs === null ? undefined : Math.round(video.jitterMs)}
              data-degraded={video.degraded ? 'true' : 'false'}
              title={pathTitle}
            >
              <span className="latency__bars" aria-hidden="true">
                <span />
                <span />
                <span />
              </span>
              {video.latencyMs === null ? t('game.latencyUnknown') : t('game.latency', { ms: video.latencyMs })}
            </span>
          ) : null}
          {video.frozen || video.degraded ? (
            <span className="link-warning" role="status" data-testid="link-warning">
              {video.frozen ? t('game.videoFrozen') : t('game.connectionDegraded')}
            </span>
          ) : null}
        </div>
        {unavailable !== null ? (
          // Not a spinner: nothing is on its way. Say so, with the code support can look up.
          <div className="stage__overlay stage__overlay--unavailable" role="alert" data-testid="video-unavailable">
            <Icon name="warning" size={40} />
            <h2 className="stage__overlay-title">{t('game.videoFailed')}</h2>
            <p>{translateCode(unavailable)}</p>
            <p className="stage__code" data-testid="video-unavailable-code">
              {t('game.errorCode', { code: unavailable })}
            </p>
            <p className="stage__hint">{t('game.videoUnavailableHint')}</p>
            <Button icon="back" onClick={props.onBackToLobby} busy={props.leaving ?? false}>
              {t('game.backToLobby')}
            </Button>
          </div>
        ) : !up || channelNotice ? (
          <div className="stage__overlay" role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            <p>{channelNotice ?? statusText}</p>
          </div>
        ) : null}
        {up && muted ? (
          <button type="button" className="stage__unmute" onClick={onUnmute} aria-label={t('game.tapToUnmute')}>
            <Icon name="volumeOff" size={20} />
            <span className="stage__unmute-text">{t('game.tapToUnmute')}</span>
          </button>
        ) : null}
        {winCents !== null && winCents > 0 ? (
          <div className="stage__win" key={winCents} aria-hidden="true">
            {money(winCents)}
          </div>
        ) : null}
      </div>
    </div>
  );
}
