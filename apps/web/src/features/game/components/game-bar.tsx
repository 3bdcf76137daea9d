import { useTranslation } from 'react-i18next';
import { IconButton } from '@/components/ui/button';
import type { GameScreen } from '../hooks/use-game-screen';
import { gameActions } from '../stores/game-store';
import { useWatcherCount } from '@/features/watch';

/** The game screen's top bar: back to the lobby, the machine's name and the view toggles. */
export function GameBar({ screen }: { screen: GameScreen }) {
  const { t } = useTranslation();
  const { state, title, leaving, showRotate, showCameraSwitch, fullscreen, fullscreenAvailable, actions } =
    screen;
  // The player sees how many spectators watch their machine.
  const watchers = useWatcherCount(screen.machineId);
  return (
    <header className="game__bar">
      <IconButton
        icon="back"
        className="flip-rtl"
        label={t('game.backToLobby')}
        onClick={actions.leave}
        disabled={leaving}
      />
      <h1 className="game__title" dir="auto" aria-label={t('game.machine', { name: title })}>
        {title}
      </h1>
      {watchers > 0 ? (
        <span className="game__watchers" data-testid="watcher-count">
          {t('watch.watchers', { count: watchers })}
        </span>
      ) : null}
      <div className="game__controls">
        <IconButton
          icon={state.muted ? 'volumeOff' : 'volumeUp'}
          label={state.muted ? t('game.unmute') : t('game.mute')}
          aria-keyshortcuts="M"
          onClick={actions.toggleMute}
        />
        <IconButton
          icon="crop"
          label={t('game.cutScreen')}
          pressed={state.cutScreen}
          onClick={() => gameActions.toggle('cutScreen')}
        />
        {showCameraSwitch ? (
          <IconButton
            icon="videocam"
            label={t('game.camera')}
            pressed={state.videoType === 'camera'}
            onClick={actions.toggleCamera}
          />
        ) : null}
        {showRotate ? (
          <IconButton
            icon="rotate"
            label={t('game.rotate')}
            pressed={state.rotate}
            onClick={() => gameActions.toggle('rotate')}
          />
        ) : null}
        {fullscreenAvailable ? (
          <IconButton
            icon={fullscreen ? 'fullscreenExit' : 'fullscreen'}
            label={fullscreen ? t('game.exitFullscreen') : t('game.fullscreen')}
            pressed={fullscreen}
            aria-keyshortcuts="F"
            onClick={actions.toggleFullscreen}
          />
        ) : null}
        <IconButton
          icon="stats"
          label={t('game.sidebar')}
          pressed={state.sidebar}
          aria-expanded={state.sidebar}
          aria-controls="game-sidebar"
          onClick={() => gameActions.toggle('sidebar')}
        />
      </div>
    </header>
  );
}
