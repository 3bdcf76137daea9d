import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ReconnectDialog } from '@/components/reconnect-dialog';
import type { GameScreen } from '../hooks/use-game-screen';

/** Cashing out ends the play on this machine, so it is confirmed first. */
export function CashOutDialog({ screen }: { screen: GameScreen }) {
  const { t } = useTranslation();
  const { confirmCashOut, machine, money, actions } = screen;
  return (
    <Dialog
      open={confirmCashOut}
      title={t('game.cashoutTitle')}
      onClose={actions.closeCashOut}
      closeLabel={t('common.close')}
      actions={
        <>
          <Button variant="ghost" onClick={actions.closeCashOut}>
            {t('common.cancel')}
          </Button>
          <Button icon="payments" onClick={actions.cashOut}>
            {t('game.cashout')}
          </Button>
        </>
      }
    >
      <p>{t('game.cashoutBody', { amount: money(machine?.creditsCents ?? 0) })}</p>
    </Dialog>
  );
}

/** After a long outage the session may have changed on the server: the player chooses how to go on. */
export function GameReconnectDialog({ screen }: { screen: GameScreen }) {
  const { interruption, resumeBusy, title, actions } = screen;
  return (
    <ReconnectDialog
      open={interruption !== null}
      variant={interruption?.variant ?? 'unknown'}
      name={interruption?.name || title}
      busy={resumeBusy}
      onAction={actions.resume}
      onLobby={actions.leave}
    />
  );
}
