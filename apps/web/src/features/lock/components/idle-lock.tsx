import { IDLE_TIMEOUT_MS } from '@reel/protocol/client';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icon';
import { TextField } from '@/components/ui/text-field';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { logout, messageForError } from '@/lib/auth';
import { useAuthStore } from '@/lib/auth-store';
import { usePlayActivity } from '@/lib/play-activity';
import { useIdleTimer } from '../hooks/use-idle-timer';
import { shouldRestoreLock, useLockStore } from '../stores/lock-store';

function LockScreen() {
  const { t } = useTranslation();
  const unlock = useLockStore((state) => state.unlock);
  const clear = useLockStore((state) => state.clear);
  const defaultPin = useRuntimeSettings((state) => state.settings.DEFAULT_PIN);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!pin.trim()) {
      setError(t('lock.pinRequired'));
      return;
    }
    setBusy(true);
    try {
      await unlock(pin.trim());
    } catch (failure) {
      setError(messageForError(failure));
      setPin('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open role="alertdialog" title={t('lock.title')} className="dialog--lock">
      <form onSubmit={submit} className="form lock-form">
        <Icon name="lock" size={44} className="text-accent lock-form__icon" />
        <p>{defaultPin ? t('lock.descriptionWithSecret', { secret: defaultPin }) : t('lock.description')}</p>
        <TextField
          label={t('lock.pin')}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          autoFocus
          value={pin}
          error={error}
          onChange={(event) => {
            setPin(event.target.value);
            setError(undefined);
          }}
        />
        <div className="dialog__actions">
          <Button
            variant="ghost"
            onClick={() => {
              clear();
              void logout();
            }}
          >
            {t('lock.logout')}
          </Button>
          <Button type="submit" busy={busy}>
            {t('lock.unlock')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function DeactivationPrompt() {
  const { t } = useTranslation();
  const show = useLockStore((state) => state.showDeactivation);
  return (
    <Dialog
      open
      role="alertdialog"
      title={t('deactivation.title')}
      onClose={() => show(false)}
      actions={
        <>
          <Button variant="ghost" onClick={() => void logout()}>
            {t('deactivation.logout')}
          </Button>
          <Button onClick={() => show(false)} autoFocus>
            {t('deactivation.continue')}
          </Button>
        </>
      }
    >
      <p>{t('deactivation.body')}</p>
    </Dialog>
  );
}

/**
 * After 60 s without activity a player with a PIN is locked when PIN_CHECK is on; everyone else is
 * asked whether to continue.
 */
export function IdleLock({ timeoutMs = IDLE_TIMEOUT_MS }: { timeoutMs?: number }) {
  const pinCheck = useRuntimeSettings((state) => state.settings.PIN_CHECK);
  const hasPin = useAuthStore((state) => state.user?.hasPin ?? false);
  const { locked, deactivationPrompt, lock, showDeactivation } = useLockStore();
  // Autoplay and bonus rounds play without input: the idle clock stands still and restarts after.
  const machinePlaysByItself = usePlayActivity((state) => state.busy);

  useEffect(() => {
    if (shouldRestoreLock(pinCheck)) useLockStore.setState({ locked: true });
  }, [pinCheck]);

  useIdleTimer(
    timeoutMs,
    () => {
      if (pinCheck && hasPin) lock();
      else showDeactivation(true);
    },
    !locked && !deactivationPrompt && !machinePlaysByItself,
  );

  if (locked) return <LockScreen />;
  if (deactivationPrompt) return <DeactivationPrompt />;
  return null;
}
