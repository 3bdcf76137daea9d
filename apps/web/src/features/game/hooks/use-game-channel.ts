import { Code, PROTECTION_CODES, SessionAction, type InfoNotification } from '@reel/protocol/client';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getOpenSession } from '@/features/session';
import { updateWallet, useAuthStore } from '@/lib/auth-store';
import { getStoredToken } from '@/lib/auth';
import { translateCode } from '@/lib/i18n';
import { reconnectVariant, type ReconnectVariant } from '@/lib/reconnect-rules';
import { handleInfo } from '@/lib/session-info';
import { toast } from '@/lib/toast-store';
import { GameChannelStatus } from '../api/channel-status';
import { GameChannel } from '../api/game-channel';
import { gameActions, useGameStore } from '../stores/game-store';
import { useMoney } from '@/lib/use-money';

/** The reconnect dialog on the game screen after a long outage. */
interface Interruption {
  variant: ReconnectVariant;
  name: string;
}

/**
 * Owns the screen's game channel: creates it for the machine, feeds the game store, turns server
 * notices into toasts and navigation, and leaves the session when the screen goes away.
 */
export function useGameChannel(
  machineId: number,
  options: { exit: (to: 'lobby') => void; cashoutOnJoin: boolean },
) {
  const { t } = useTranslation();
  const money = useMoney();
  const [channel, setChannel] = useState<GameChannel | null>(null);
  const [interruption, setInterruption] = useState<Interruption | null>(null);
  const latest = useRef({ t, money, exit: options.exit });
  latest.current = { t, money, exit: options.exit };
  const cashoutOnJoin = useRef(options.cashoutOnJoin);
  const leaveRef = useRef<() => Promise<void>>(async () => undefined);

  useEffect(() => {
    const next = new GameChannel({
      machineId,
      getToken: () => useAuthStore.getState().token ?? getStoredToken(),
    });
    // Set once the server itself ended the session; leaving must then not send anything more.
    let ended = false;
    const exit = () => {
      ended = true;
      latest.current.exit('lobby');
    };
    const offs = [
      next.on('status', (status) => gameActions.status(status)),
      next.on('joined', (data) => {
        gameActions.joined(data);
        setInterruption(null);
        if (cashoutOnJoin.current) {
          cashoutOnJoin.current = false;
          next.cashOut();
        }
      }),
      next.on('machine', (machine) => gameActions.machine(machine)),
      next.on('cycle', (cycle) => {
        // Play goes on: a limit's refusal no longer describes the screen.
        if (PROTECTION_CODES.includes(useGameStore.getState().notice?.code ?? 0)) gameActions.set({ notice: null });
        gameActions.cycle(cycle);
      }),
      next.on('session', (session) => gameActions.session(session)),
      next.on('moneyTransfer', ({ active }) => {
        if (gameActions.moneyTransfer(active)) next.setAutoplay(false);
      }),
      next.on('cashedIn', ({ amountCents, balanceCents }) => {
        updateWallet({ balance: balanceCents });
        toast.success(latest.current.t('game.cashedIn', { amount: latest.current.money(amountCents) }));
      }),
      next.on('cashedOut', ({ amountCents, balanceCents }) => {
        updateWallet({ balance: balanceCents });
        if (amountCents > 0)
          toast.success(latest.current.t('game.cashedOut', { amount: latest.current.money(amountCents) }));
      }),
      next.on('info', (info: InfoNotification) => {
        // A hand pay waits for staff: the screen says so until it is paid (then the toast says paid).
        if (info.action === SessionAction.HandPay && info.code === Code.HandPayWaiting) {
          gameActions.set({ notice: { code: info.code, params: info.params ?? {} } });
          toast.info(translateCode(info.code, { ...info.params, amount: latest.current.money(Number(info.params.amount)) }, info.message));
          return;
        }
        if (info.action === SessionAction.HandPay) {
          if (useGameStore.getState().notice?.code === Code.HandPayWaiting) gameActions.set({ notice: null });
          toast.success(
            latest.current.t('game.handPay', {
              amount: latest.current.money(Number(info.params.amount)),
            }),
          );
          return;
        }
        // The machine's meters disagreed with the game records: play stops, the screen says what was paid.
        if (info.code === Code.MachineMalfunction) {
          const first = useGameStore.getState().notice === null;
          gameActions.set({ notice: { code: info.code, params: info.params ?? {} } });
          const amount = latest.current.money(Number(info.params?.amount ?? 0));
          if (first) toast.error(translateCode(info.code, { ...info.params, amount }, info.message));
          return;
        }
        if (info.action === SessionAction.CloseSession || info.action === SessionAction.QuitRequest)
          ended = true;
        handleInfo(info, exit);
      }),
      next.on('error', (error) => {
        useGameStore.setState({ spinPending: false });
        // A limit of the player's own stays on the screen: which limit, what is left, when it resets.
        if (PROTECTION_CODES.includes(error.code)) gameActions.set({ notice: { code: error.code, params: error.Params ?? {} } });
        // The reality check has a dialog of its own, not a toast.
        if (error.code === Code.RealityCheckDue) return gameActions.set({ realityCheck: error.Params ?? {} });
        toast.error(translateCode(error.code, error.Params, error.ErrorMessage));
      }),
      next.on('fatal', (error) => {
        ended = true;
        toast.error(translateCode(error.code, error.Params, error.ErrorMessage));
        latest.current.exit('lobby');
      }),
      next.on('closed', ({ reason }) => {
        // Our own leave ends here too; only a close we did not ask for takes the player away.
        if (!ended && reason !== SessionAction.QuitRequest) {
          ended = true;
          toast.info(latest.current.t('session.closeSession'));
          latest.current.exit('lobby');
        }
      }),
      next.on('interrupted', () => {
        getOpenSession()
          .then((open) => {
            if (open.show && open.id === machineId) {
              setInterruption({
                variant: reconnectVariant(open.machine_status ?? 'unknown'),
                name: open.name ?? '',
              });
              return;
            }
            ended = true;
            toast.info(latest.current.t('game.sessionEnded'));
            latest.current.exit('lobby');
          })
          .catch(() => setInterruption({ variant: 'unknown', name: '' }));
      }),
    ];
    // The back button waits for the cash out, so the lobby it opens already sees the session closed.
    leaveRef.current = async () => {
      if (ended) return latest.current.exit('lobby');
      ended = true;
      await next.leave();
      latest.current.exit('lobby');
    };
    setChannel(next);
    next.start();
    return () => {
      for (const off of offs) off();
      // Leaving the screen is leaving the machine: the server cashes out and closes.
      if (!ended && next.getStatus() === GameChannelStatus.Joined) void next.leave();
      else next.dispose();
      gameActions.leave();
    };
  }, [machineId]);

  return {
    channel,
    interruption,
    clearInterruption: () => setInterruption(null),
    leave: () => leaveRef.current(),
  };
}
