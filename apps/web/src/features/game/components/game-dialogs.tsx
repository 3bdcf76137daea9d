import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
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
export function ReconnectDialog({ screen }: { screen: GameScreen }) {
  const { t } = useTranslation();
  const { interruption, resumeBusy, title, actions } = screen;
  return (
    <Dialog
      open={interruption !== null}
      role="alertdialog"
      title={t('reconnect.title')}
      actions={
        interruption ? (
          <>
            <Button variant="ghost" onClick={actions.leave}>
              {t('reconnect.lobbyReturn')}
            </Button>
            {interruption.variant === 'in_game' ? (
              <Button variant="danger" busy={resumeBusy} onClick={() => actions.resume('kick')}>
                {t('reconnect.kick')}
              </Button>
            ) : (
              <>
                <Button variant="secondary" busy={resumeBusy} onClick={() => actions.resume('cancel')}>
                  {t('reconnect.cancel')}
                </Button>
                <Button variant="secondary" busy={resumeBusy} onClick={() => actions.resume('cashout')}>
                  {t('reconnect.cashout')}
                </Button>
                <Button busy={resumeBusy} onClick={() => actions.resume('continue')}>
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
  );
}
