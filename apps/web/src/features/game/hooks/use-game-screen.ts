import type { AutoplayStops } from '@reel/protocol/client';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { closedSessionState } from '@/features/protection';
import { cancelSession, kickSession } from '@/features/session';
import { messageForError } from '@/lib/auth';
import type { ReconnectAction } from '@/lib/reconnect-rules';
import { useAuthStore } from '@/lib/auth-store';
import { toast } from '@/lib/toast-store';
import { useMoney } from '@/lib/use-money';
import { VideoStatus } from '@/lib/video';
import { GameChannelStatus } from '../api/channel-status';
import {
  autoplayRule,
  betRule,
  cashInRule,
  cashOutRule,
  nextBetLevel,
  onAppleHandheld,
  rotateAvailable,
  spinRule,
  type PlayContext,
} from '../game-rules';
import { gameActions, useGameStore } from '../stores/game-store';
import { canUseFullscreen, useFullscreen } from './use-fullscreen';
import { useGameChannel } from './use-game-channel';
import { useGameKeys } from './use-game-keys';
import { useLiveVideo } from './use-live-video';


/**
 * Everything the game screen knows and does: the channel and video of the machine in the URL,
 * what the rules allow now, and the player's commands. The page only lays it out.
 */
export function useGameScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { gameId, name: nameParam } = useParams();
  const [search, setSearch] = useSearchParams();
  const machineId = Number(gameId);
  const money = useMoney();
  const settings = useRuntimeSettings((state) => state.settings);
  const walletCents = useAuthStore((state) => state.wallet?.balance ?? null);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [confirmCashOut, setConfirmCashOut] = useState(false);
  const [choosingAutoplay, setChoosingAutoplay] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [resumeBusy, setResumeBusy] = useState(false);
  const cashoutOnJoin = search.get('cashout') === '1';

  const { channel, interruption, clearInterruption, leave } = useGameChannel(machineId, {
    // The lobby shows the session's summary once the server has closed it.
    exit: () => navigate(paths.lobby, { replace: true, state: closedSessionState(useGameStore.getState().session?.sessionId) }),
    cashoutOnJoin,
  });

  const state = useGameStore();
  // A machine whose video cannot start has nothing to connect to: no WHEP attempts until it can.
  const videoError = state.machine?.videoError ?? null;
  const video = useLiveVideo(videoRef, channel, videoError === null);

  useEffect(() => {
    gameActions.set({ volume: settings.VOLUME });
  }, [settings.VOLUME]);
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
  const rules = {
    spin: spinRule(ctx),
    bet: betRule(ctx),
    autoplay: autoplayRule(ctx),
    cashOut: cashOutRule(ctx),
    coin: (amountCents: number) =>
      cashInRule({ ...ctx, amountCents, walletCents, maxAllInCents: settings.MAX_ALL_IN_LIMIT }),
  };
  const levels = state.betLevels;
  const betLevel = machine?.betLevel ?? 0;
  const title = state.name || decodeURIComponent(nameParam ?? '');
  const showRotate = rotateAvailable(state.layout, state.videoType);
  const showCameraSwitch = settings.SHOW_WEBCAM;
  const fullscreenAvailable = canUseFullscreen();

  const spin = () => {
    if (rules.spin !== null || !channel) return;
    // The command first: every millisecond before it reaches the cabinet is seen as lag.
    channel.spin();
    gameActions.set({ spinPending: true });
  };
  const bet = (step: 1 | -1, wrap = false) => {
    if (rules.bet !== null || !channel || levels.length === 0) return;
    const level = nextBetLevel(levels.length, betLevel, step, wrap);
    if (level !== betLevel) channel.setBetLevel(level);
  };
  const autoplay = () => {
    if (rules.autoplay !== null || !channel) return;
    const on = !state.autoplay;
    // AUTOPLAY_ALLOWED off (a jurisdiction rule): the button is hidden and the A key does nothing.
    if (on && !settings.AUTOPLAY_ALLOWED) return;
    // Turning it on asks first where it stops (autoplay-dialog.tsx).
    if (on) {
      setChoosingAutoplay(true);
      return;
    }
    gameActions.set({ autoplay: false });
    channel.setAutoplay(false);
  };
  const startAutoplay = (stops: AutoplayStops) => {
    setChoosingAutoplay(false);
    if (rules.autoplay !== null || !channel || state.autoplay) return;
    gameActions.set({ autoplay: true });
    channel.setAutoplay(true, stops);
  };
  const cashIn = (amountCents: number) => {
    if (rules.coin(amountCents) !== null || !channel) return;
    channel.cashIn(amountCents);
  };
  const cashOut = () => {
    setConfirmCashOut(false);
    if (state.autoplay) channel?.setAutoplay(false);
    channel?.cashOut();
  };
  const leaveGame = async () => {
    setLeaving(true);
    await leave();
  };
  const unmute = () => {
    gameActions.set({ muted: false });
    void videoRef.current?.play().catch(() => undefined);
  };
  const toggleMute = () => (state.muted ? unmute() : gameActions.set({ muted: true }));
  // The server switches the cabinet's picture; the store follows its `machine` answer.
  const toggleCamera = () => channel?.setVideoType(state.videoType === 'camera' ? 'screen' : 'camera');
  const setBand = (bandId: string) => {
    gameActions.set({ activeBand: bandId });
    channel?.setBand(bandId);
  };

  useGameKeys({
    spin,
    autoplay,
    betUp: () => bet(1),
    betDown: () => bet(-1),
    fullscreen: () => (fullscreenAvailable ? toggleFullscreen() : gameActions.toggle('fullWindow')),
    mute: toggleMute,
    escape: () => gameActions.set({ sidebar: false }),
  });

  const resume = async (action: ReconnectAction) => {
    if (!channel) return;
    setResumeBusy(true);
    try {
      if (action === 'cancel') await cancelSession(machineId);
      if (action === 'kick') await kickSession(machineId);
      // `wait` (and `continue`) join again as things are: the screen then shows what the machine does.
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

  const className = [
    'game',
    state.rotate && showRotate ? 'game--rotated' : '',
    state.fullWindow || onAppleHandheld() ? 'game--full-window' : '',
    state.sidebar ? 'game--sidebar' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return {
    state,
    machineId,
    machine,
    money,
    settings,
    videoRef,
    video,
    videoError,
    title,
    className,
    channelNotice,
    showRotate,
    showCameraSwitch,
    fullscreen,
    fullscreenAvailable,
    rules,
    levels,
    betLevel,
    leaving,
    confirmCashOut,
    choosingAutoplay,
    interruption,
    resumeBusy,
    actions: {
      spin,
      bet,
      autoplay,
      startAutoplay,
      closeAutoplay: () => setChoosingAutoplay(false),
      cashIn,
      cashOut,
      askCashOut: () => setConfirmCashOut(true),
      closeCashOut: () => setConfirmCashOut(false),
      leave: () => void leaveGame(),
      unmute,
      toggleMute,
      toggleFullscreen,
      setBand,
      toggleCamera,
      resume: (action: ReconnectAction) => void resume(action),
    },
  };
}

export type GameScreen = ReturnType<typeof useGameScreen>;
