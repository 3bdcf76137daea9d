import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';
import { RealityCheckDialog } from '@/features/protection';
import { translateCode } from '@/lib/i18n';
import { useGameScreen } from '../hooks/use-game-screen';
import { gameActions } from '../stores/game-store';
import { celebratedWin } from '../game-rules';
import { AutoplayDialog } from './autoplay-dialog';
import { ControlDeck } from './control-deck';
import { GameBar } from './game-bar';
import { CashOutDialog, GameReconnectDialog } from './game-dialogs';
import { GameSidebar } from './game-sidebar';
import { Meters, SessionFacts } from './meters';
import { VideoStage } from './video-stage';

interface GamePageProps {
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
  const screen = useGameScreen();
  const { state, machine, money, settings, rules, levels, betLevel, actions } = screen;

  return (
    <div className={screen.className} data-connection={state.connectionStatus} data-layout={state.layout}>
      <GameBar screen={screen} />

      <main id="main" className="game__main">
        <VideoStage
          videoRef={screen.videoRef}
          video={screen.video}
          name={screen.title}
          muted={state.muted}
          cutScreen={state.cutScreen}
          onUnmute={actions.unmute}
          winCents={celebratedWin(state.lastCycle, settings.NO_FALSE_WIN_CELEBRATION)}
          money={money}
          channelNotice={screen.channelNotice}
          unavailableCode={screen.videoError}
          onBackToLobby={actions.leave}
          leaving={screen.leaving}
        />
        <div className="game__panel">
          {machine?.emergencyStop !== undefined ? (
            <p className="notice notice--warning" role="alert" data-testid="emergency-stop">
              <Icon name="warning" size={20} />
              <span>{t('game.emergencyStop', { reason: machine.emergencyStop })}</span>
            </p>
          ) : null}
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
                  amount: money(Number(state.notice.params.amount)),
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
            spin={rules.spin}
            bet={rules.bet}
            autoplay={rules.autoplay}
            cashOut={rules.cashOut}
            coin={rules.coin}
            autoplayOn={state.autoplay}
            autoplayShown={settings.AUTOPLAY_ALLOWED || state.autoplay}
            spinning={state.spinPending || machine?.cabinetState === 'in_game'}
            betCents={machine?.betCents ?? levels[betLevel] ?? 0}
            canBetDown={betLevel > 0}
            canBetUp={betLevel < levels.length - 1}
            money={money}
            limitText={money(settings.MAX_ALL_IN_LIMIT)}
            onSpin={actions.spin}
            onBet={(step) => actions.bet(step)}
            onAutoplay={actions.autoplay}
            onCashIn={actions.cashIn}
            onCashOut={actions.askCashOut}
          />
        </div>
      </main>

      <GameSidebar screen={screen} promotions={promotions} />
      <CashOutDialog screen={screen} />
      <AutoplayDialog open={screen.choosingAutoplay} onStart={actions.startAutoplay} onClose={actions.closeAutoplay} />
      <GameReconnectDialog screen={screen} />
      <RealityCheckDialog
        summary={state.realityCheck}
        money={money}
        onContinue={() => gameActions.set({ realityCheck: null })}
        onLeave={() => {
          gameActions.set({ realityCheck: null });
          actions.leave();
        }}
      />
    </div>
  );
}
