import type {
  GameCycleView,
  MachineView,
  Params,
  QualityBand,
  SessionView,
  VideoType,
} from '@reel/protocol/client';
import { create } from 'zustand';
import { setPlayBusy } from '@/lib/play-activity';
import { MEDIA } from '@/lib/use-media-query';
import type { GameChannelStatus } from '../api/channel-status';
import type { JoinedData } from '../api/game-channel';
import type { GameLayout } from '../game-rules';

/** The game view state of spec section 3, plus what the server tells the screen about play. */
interface GameViewState {
  id: number | null;
  name: string;
  connectionStatus: GameChannelStatus;
  lastClickMs: number;
  volume: number;
  muted: boolean;
  sidebar: boolean;
  loading: boolean;
  moneyTransfer: boolean;
  videoType: VideoType;
  /** Sorted by Order, highest first. */
  bands: QualityBand[];
  activeBand: string | null;
  autoplay: boolean;
  cutScreen: boolean;
  rotate: boolean;
  /** How the screen is held (spec "layout"): the rotate toggle and the rotated video follow it. */
  layout: GameLayout;
  fullWindow: boolean;
  betLevels: number[];
  machine: MachineView | null;
  session: SessionView | null;
  lastCycle: GameCycleView | null;
  /** A spin was pressed and its cycle has not come back yet. */
  spinPending: boolean;
  /** A server notice that stays on the screen (a machine malfunction and what was paid). */
  notice: { code: number; params: Params } | null;
  /** The reality check the server holds the next spin for (40920's Params), until acknowledged. */
  realityCheck: Params | null;
}

const portraitQuery = typeof window === 'undefined' ? undefined : window.matchMedia?.(MEDIA.portrait);

function currentLayout(): GameLayout {
  return portraitQuery?.matches ? 'portrait' : 'landscape';
}

const initialGameState = (volume = 1): GameViewState => ({
  id: null,
  name: '',
  connectionStatus: 'idle',
  lastClickMs: 0,
  volume,
  muted: true,
  sidebar: false,
  loading: true,
  moneyTransfer: false,
  videoType: 'screen',
  bands: [],
  activeBand: null,
  autoplay: false,
  cutScreen: false,
  rotate: false,
  layout: currentLayout(),
  fullWindow: false,
  betLevels: [],
  machine: null,
  session: null,
  lastCycle: null,
  spinPending: false,
  notice: null,
  realityCheck: null,
});

export const useGameStore = create<GameViewState>(() => initialGameState());
// Turning the phone changes the layout at once, with or without a game open.
portraitQuery?.addEventListener('change', () => useGameStore.setState({ layout: currentLayout() }));

/** Autoplay or a bonus round (free spins left, or the cabinet says so): the machine plays by itself. */
function playsByItself(state: Pick<GameViewState, 'autoplay' | 'machine'>): boolean {
  return (
    state.autoplay ||
    (state.machine !== null && (state.machine.cabinetState === 'in_bonus' || state.machine.freeSpinsLeft > 0))
  );
}
// Leaving the game resets the state, which clears the report too.
useGameStore.subscribe((state) => setPlayBusy(playsByItself(state)));

function sortBands(bands: readonly QualityBand[]): QualityBand[] {
  return [...bands].sort((a, b) => b.Order - a.Order);
}

export const gameActions = {
  joined(data: JoinedData) {
    useGameStore.setState((state) => ({
      id: data.machineId,
      name: data.name,
      loading: false,
      videoType: data.videoType,
      bands: sortBands(data.bands),
      // A resumed join keeps the band the player picked on this screen.
      activeBand: state.bands.length && state.activeBand ? state.activeBand : data.activeBand,
      betLevels: data.betLevels,
      machine: data.machine,
      autoplay: data.machine.autoplay,
      session: data.session,
    }));
  },
  machine(machine: MachineView) {
    // Any machine report after a press means the cabinet has taken (or refused) the spin.
    useGameStore.setState({
      machine,
      videoType: machine.videoType,
      autoplay: machine.autoplay,
      spinPending: false,
    });
  },
  cycle(cycle: GameCycleView) {
    useGameStore.setState((state) => ({
      lastCycle: cycle,
      spinPending: false,
      machine: state.machine
        ? { ...state.machine, creditsCents: cycle.creditsAfterCents, freeSpinsLeft: cycle.freeSpinsLeft }
        : state.machine,
    }));
  },
  session(session: SessionView) {
    useGameStore.setState({ session });
  },
  status(connectionStatus: GameChannelStatus) {
    useGameStore.setState({ connectionStatus });
  },
  /** Spec section 4: a money transfer status change turns autoplay off. Returns whether it was on. */
  moneyTransfer(active: boolean): boolean {
    const { autoplay, moneyTransfer } = useGameStore.getState();
    if (active === moneyTransfer) return false;
    useGameStore.setState({ moneyTransfer: active, autoplay: false });
    return autoplay;
  },
  click() {
    useGameStore.setState({ lastClickMs: Date.now() });
  },
  toggle(key: 'sidebar' | 'autoplay' | 'cutScreen' | 'rotate' | 'fullWindow' | 'muted') {
    useGameStore.setState((state) => ({ [key]: !state[key] }));
  },
  set(patch: Partial<GameViewState>) {
    useGameStore.setState(patch);
  },
  /** Spec section 4, on leaving the game: loading, sidebar closed, no autoplay, no money transfer, no bands. */
  leave() {
    useGameStore.setState((state) => ({ ...initialGameState(state.volume), muted: state.muted }));
  },
};
