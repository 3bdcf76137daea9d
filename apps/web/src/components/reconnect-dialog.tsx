import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { reconnectActions, type ReconnectAction, type ReconnectVariant } from '@/lib/reconnect-rules';

interface ReconnectDialogProps {
  open: boolean;
  variant: ReconnectVariant;
  /** The machine's name, for the wording. */
  name: string;
  busy: boolean;
  onAction: (action: ReconnectAction) => void;
  /** Back to the lobby (the game screen); the lobby's own dialog closes instead (onClose). */
  onLobby?: () => void;
  onClose?: () => void;
}

const BUTTON_VARIANT = { kick: 'danger', cancel: 'secondary', cashout: 'secondary', continue: 'primary', wait: 'primary' } as const;

/** The dialog for an open session after a drop, the same on the lobby and the game screen. */
export function ReconnectDialog({ open, variant, name, busy, onAction, onLobby, onClose }: ReconnectDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      role="alertdialog"
      title={t('reconnect.title')}
      onClose={onClose}
      closeLabel={onClose ? t('common.close') : undefined}
      actions={
        <>
          {onLobby ? (
            <Button variant="ghost" onClick={onLobby}>
              {t('reconnect.lobbyReturn')}
            </Button>
          ) : null}
          {reconnectActions(variant).map((action) => (
            <Button key={action} variant={BUTTON_VARIANT[action]} busy={busy} onClick={() => onAction(action)}>
              {t(`reconnect.${action}`)}
            </Button>
          ))}
        </>
      }
    >
      <p>{t(`reconnect.${variant}`, { name })}</p>
    </Dialog>
  );
}
