import type { StreamGrant } from '@reel/protocol/client';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Button, IconButton } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { cancelSession, kickSession } from '@/features/session';
import { messageForError } from '@/lib/auth';
import { useAuthStore } from '@/lib/auth-store';
import { translateCode } from '@/lib/i18n';
import { toast } from '@/lib/toast-store';
import { useMoney } from '@/lib/use-money';
import { MEDIA, useMediaQuery } from '@/lib/use-media-query';
import { VideoStatus } from '@/lib/video';
import { GameChannelStatus } from '../api/game-channel';
import {
  autoplayRule,
  betRule,
  cashInRule,
  cashOutRule,
  isAppleHandheld,
  nextBetLevel,
  spinRule,
  type PlayContext,
} from '../game-rules';
import { decimalToCents, useGameChannel } from '../hooks/use-game-channel';
import { useGameKeys } from '../hooks/use-game-keys';
import { useLiveVideo } from '../hooks/use-live-video';
import { gameActions, useGameStore } from '../stores/game-store';
import { ControlDeck } from './control-deck';
import { Meters, SessionFacts } from './meters';
import { VideoStage } from './video-stage';

/** iPhone, iPod and iPad cannot take an element fullscreen, so the toggle is hidden there. */
export function canUseFullscreen(userAgent: string = navigator.userAgent): boolean {
  return !isAppleHandheld(userAgent) && typeof document.documentElement.requestFullscreen === 'function';
}

function useFullscreen() {
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const onChange = () => setFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return { fullscreen, toggle };
}

export interface GamePageProps {
  /** The toolbar's wallet balance (composed by the app). */
  wallet?: ReactNode;
  /** The toolbar's discount and bonus buttons (composed by the app). */
  promotions?: ReactNode;
}

/**
 * `/game/:gameId/:name`: live video of one machine and its controls. Leaving the screen leaves the
 * machine (the server cashes out); a reload or a lost network keeps the session for the grace period.
 */
export function GamePage({ wallet, promotions }: GamePageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { gameId, name: nameParam } = useParams();
  const [search, setSearch] = useSearchParams();
  const machineId = Number(gameId);
  const money = useMoney();
  const settings = useRuntimeSettings((state) => state.settings);
  const walletCents = useAuthStore((state) => state.wallet?.balance ?? null);
  const portrait = useMediaQuery(MEDIA.portrait);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [grant, setGrant] = useState<StreamGrant | null>(null);
  const [confirmCashOut, setConfirmCashOut] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [resumeBusy, setResumeBusy] = useState(false);
  const cashoutOnJoin = search.get('cashout') === '1';

  const { channel, interruption, clearInterruption, leave } = useGameChannel(machineId, {
    exit: () => navigate(paths.lobby, { replace: true }),
    cashoutOnJoin,
  });

  const state = useGameStore();
  // A machine whose video cannot start has nothing to connect to: no WHEP attempts until it can.
  const videoError = state.machine?.videoError ?? null;
  const video = useLiveVideo(videoRef, channel, videoError === null ? grant : null);

  useEffect(() => {
    gameActions.set({ volume: settings.VOLUME });
  }, [settings.VOLUME]);
  useEffect(() => {
    if (!channel) return;
    return channel.on('joined', (data) => {
      if (data.stream) setGrant((previous) => previous ?? data.stream);
    });
  }, [channel]);
  // `?cashout=1` is a one-time instruction; a reload must not cash out again.
  useEffect(() => {
    if (!cashoutOnJoin) return;
    const next = new URLSearchParams(search);
    next.delete('cashout');
    setSearch(next, { replace: true });
  }, [cashoutOnJoin, search, setSearch]);
  useEffect(() => {
    const element = videoRef.current;
    if (!element) return;
    element.volume = Math.min(1, Math.max(0, state.volume));
    element.muted = state.muted;
  }, [state.volume, state.muted]);
  // The idle timer (spec section 4) records the last click anywhere on the game screen.
  useEffect(() => {
    const onPointer = () => {
      gameActions.click();
      if (settings.AUTO_FULLSCREEN && canUseFullscreen() && !document.fullscreenElement) toggleFullscreen();
    };
    window.addEventListener('pointerdown', onPointer, { capture: true });
    return () => window.removeEventListener('pointerdown', onPointer, { capture: true });
  });

  const machine = state.machine;
  const joined = state.connectionStatus === GameChannelStatus.Joined;
  // A frozen picture counts as no picture: the player must see the spin they pay for and its outcome.
  const videoUp = video.status === VideoStatus.Connected && video.firstFrameMs !== null && !video.frozen;
  const ctx: PlayContext = {
    joined,
    videoUp,
    moneyTransfer: state.moneyTransfer,
    machine,
    spinPending: state.spinPending,
    autoplay: state.autoplay,
  };
  const spin = spinRule(ctx);
  const bet = betRule(ctx);
  const autoplay = autoplayRule(ctx);
  const cashOut = cashOutRule(ctx);
  const coin = (amountCents: number) =>
    cashInRule({ ...ctx, amountCents, walletCents, maxAllInCents: settings.MAX_ALL_IN_LIMIT });
  const levels = state.betLevels;
  const betLevel = machine?.betLevel ?? 0;
  const title = state.name || decodeURIComponent(nameParam ?? '');
  const showRotate = portrait && state.videoType !== 'camera';
  const fullscreenAvailable = canUseFullscreen();

  const doSpin = () => {
    if (spin !== null || !channel) return;
    // The command first: every millisecond before it reaches the cabinet is seen as lag.
    channel.spin();
    gameActions.set({ spinPending: true });
  };
  const doBet = (step: 1 | -1, wrap = false) => {
    if (bet !== null || !channel || levels.length === 0) return;
    const level = nextBetLevel(levels.length, betLevel, step, wrap);
    if (level !== betLevel) channel.setBetLevel(level);
  };
  const doAutoplay = () => {
    if (autoplay !== null || !channel) return;
    const on = !state.autoplay;
    gameActions.set({ autoplay: on });
    channel.setAutoplay(on);
  };
  const doCashIn = (amountCents: number) => {
    if (coin(amountCents) !== null || !channel) return;
    channel.cashIn(amountCents);
  };
  const doLeave = async () => {
    setLeaving(true);
    await leave();
  };
  const unmute = () => {
    gameActions.set({ muted: false });
    void videoRef.current?.play().catch(() => undefined);
  };

  useGameKeys({
    spin: doSpin,
    autoplay: doAutoplay,
    betUp: () => doBet(1),
    betDown: () => doBet(-1),
    fullscreen: () => (fullscreenAvailable ? toggleFullscreen() : gameActions.toggle('fullWindow')),
    mute: () => (state.muted ? unmute() : gameActions.set({ muted: true })),
    escape: () => gameActions.set({ sidebar: false }),
  });

  const resume = async (action: 'continue' | 'cashout' | 'cancel' | 'kick') => {
    if (!channel) return;
    setResumeBusy(true);
    try {
      if (action === 'cancel') await cancelSession(machineId);
      if (action === 'kick') await kickSession(machineId);
      clearInterruption();
      if (action === 'cashout') {
        const off = channel.on('joined', () => {
          off();
          channel.cashOut();
        });
      }
      channel.resume();
    } catch (error) {
      toast.error(messageForError(error));
    } finally {
      setResumeBusy(false);
    }
  };

  const channelNotice =
    state.connectionStatus === GameChannelStatus.Offline
      ? t('game.offline')
      : state.connectionStatus === GameChannelStatus.Reconnecting ||
          state.connectionStatus === GameChannelStatus.Interrupted
        ? t('game.reconnecting')
        : state.loading
          ? t('game.connecting')
          : leaving
            ? t('game.leaving')
            : null;

  const classes = [
    'game',
    state.rotate && showRotate ? 'game--rotated' : '',
    state.fullWindow || isAppleHandheld(navigator.userAgent) ? 'game--full-window' : '',
    state.sidebar ? 'game--sidebar' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={classes} data-connection={state.connectionStatus}>
      <header className="game__bar">
        <IconButton
          icon="back"
          className="flip-rtl"
          label={t('game.backToLobby')}
          onClick={() => void doLeave()}
          disabled={leaving}
        />
        <h1 className="game__title" dir="auto" aria-label={t('game.machine', { name: title })}>
          {title}
        </h1>
        <div className="game__controls">
          <IconButton
            icon={state.muted ? 'volumeOff' : 'volumeUp'}
            label={state.muted ? t('game.unmute') : t('game.mute')}
            aria-keyshortcuts="M"
            onClick={() => (state.muted ? unmute() : gameActions.set({ muted: true }))}
          />
          <IconButton
            icon="crop"
            label={t('game.cutScreen')}
            pressed={state.cutScreen}
            onClick={() => gameActions.toggle('cutScreen')}
          />
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
              onClick={toggleFullscreen}
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

      <main id="main" className="game__main">
        <VideoStage
          videoRef={videoRef}
          video={video}
          name={title}
          muted={state.muted}
          cutScreen={state.cutScreen}
          onUnmute={unmute}
          winCents={state.lastCycle?.winCents ?? null}
          money={money}
          channelNotice={channelNotice}
          unavailableCode={videoError}
          onBackToLobby={() => void doLeave()}
          leaving={leaving}
        />
        <div className="game__panel">
          {state.notice ? (
            <p
              className="notice notice--warning"
              role="alert"
              data-testid="game-notice"
              data-code={state.notice.code}
            >
              <Icon name="info" size={20} />
              <span>
                {translateCode(state.notice.code, {
                  ...state.notice.params,
                  amount: money(decimalToCents(state.notice.params.amount)),
                })}
              </span>
            </p>
          ) : null}
          <Meters
            wallet={wallet}
            creditsCents={machine?.creditsCents ?? null}
            lastCycle={state.lastCycle}
            freeSpinsLeft={machine?.freeSpinsLeft ?? 0}
            money={money}
          />
          <SessionFacts session={state.session} money={money} compact />
          <ControlDeck
            spin={spin}
            bet={bet}
            autoplay={autoplay}
            cashOut={cashOut}
            coin={coin}
            autoplayOn={state.autoplay}
            spinning={state.spinPending || machine?.cabinetState === 'in_game'}
            betCents={machine?.betCents ?? levels[betLevel] ?? 0}
            canBetDown={betLevel > 0}
            canBetUp={betLevel < levels.length - 1}
            money={money}
            limitText={money(settings.MAX_ALL_IN_LIMIT)}
            onSpin={doSpin}
            onBet={(step) => doBet(step)}
            onAutoplay={doAutoplay}
            onCashIn={doCashIn}
            onCashOut={() => setConfirmCashOut(true)}
          />
        </div>
      </main>

      <aside
        id="game-sidebar"
        className="game__sidebar"
        aria-label={t('game.sidebar')}
        hidden={!state.sidebar}
      >
        <div className="game__sidebar-head">
          <h2>{t('game.sidebar')}</h2>
          <IconButton
            icon="close"
            label={t('game.closeSidebar')}
            onClick={() => gameActions.set({ sidebar: false })}
          />
        </div>
        <SessionFacts session={state.session} money={money} />
        {state.bands.length > 0 ? (
          <fieldset className="bands">
            <legend>{t('game.quality')}</legend>
            {state.bands.map((band) => (
              <label
                key={band.id}
                className={`bands__option${band.id === state.activeBand ? ' bands__option--active' : ''}`}
              >
                <input
                  type="radio"
                  name="band"
                  value={band.id}
                  checked={band.id === state.activeBand}
                  onChange={() => {
                    gameActions.set({ activeBand: band.id });
                    channel?.setBand(band.id);
                  }}
                />
                <span>{band.name}</span>
                <span className="muted small">{band.bitrateKbps} kbit/s</span>
              </label>
            ))}
          </fieldset>
        ) : null}
        <label className="volume">
          <span>{t('game.volume')}</span>
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={state.volume}
            onChange={(event) =>
              gameActions.set({ volume: Number(event.target.value), muted: Number(event.target.value) === 0 })
            }
          />
        </label>
        {promotions ? <div className="game__promotions">{promotions}</div> : null}
        <p className="muted small">{t('game.shortcuts')}</p>
        <p className="game__responsible">
          <Icon name="info" size={16} />
          {t('game.responsible')}
        </p>
      </aside>

      <Dialog
        open={confirmCashOut}
        title={t('game.cashoutTitle')}
        onClose={() => setConfirmCashOut(false)}
        closeLabel={t('common.close')}
        actions={
          <>
            <Button variant="ghost" onClick={() => setConfirmCashOut(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              icon="payments"
              onClick={() => {
                setConfirmCashOut(false);
                if (state.autoplay) channel?.setAutoplay(false);
                channel?.cashOut();
              }}
            >
              {t('game.cashout')}
            </Button>
          </>
        }
      >
        <p>{t('game.cashoutBody', { amount: money(machine?.creditsCents ?? 0) })}</p>
      </Dialog>

      <Dialog
        open={interruption !== null}
        role="alertdialog"
        title={t('reconnect.title')}
        actions={
          interruption ? (
            <>
              <Button variant="ghost" onClick={() => void doLeave()}>
                {t('reconnect.lobbyReturn')}
              </Button>
              {interruption.variant === 'in_game' ? (
                <Button variant="danger" busy={resumeBusy} onClick={() => void resume('kick')}>
                  {t('reconnect.kick')}
                </Button>
              ) : (
                <>
                  <Button variant="secondary" busy={resumeBusy} onClick={() => void resume('cancel')}>
                    {t('reconnect.cancel')}
                  </Button>
                  <Button variant="secondary" busy={resumeBusy} onClick={() => void resume('cashout')}>
                    {t('reconnect.cashout')}
                  </Button>
                  <Button busy={resumeBusy} onClick={() => void resume('continue')}>
                    {t('reconnect.continue')}
                  </Button>
                </>
              )}
            </>
          ) : null
        }
      >
        {interruption ? (
          <p>{t(`reconnect.${interruption.variant}`, { name: interruption.name || title })}</p>
        ) : null}
      </Dialog>
    </div>
  );
}
