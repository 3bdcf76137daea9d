import type { SessionNotification } from '@reel/protocol/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { messageForError } from '@/lib/auth';
import { notificationSocket } from '@/lib/notification-socket';
import { handleInfo, reconnectVariant } from '@/lib/session-info';
import { toast } from '@/lib/toast-store';
import { cancelSession } from '../api/cancel-session';
import { getOpenSession } from '../api/get-open-session';
import { kickSession } from '../api/kick-session';

export function SessionNotices() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [session, setSession] = useState<SessionNotification | null>(null);
  const [busy, setBusy] = useState(false);
  const onGame = pathname.startsWith('/game/');

  // A push only reaches a page that was open when the session dropped; a sign-in or a lobby visit
  // afterwards asks. A session open on another tab or device is "being played" for this one.
  useEffect(() => {
    if (onGame) return;
    const controller = new AbortController();
    getOpenSession(controller.signal)
      .then((open) => {
        if (!open.show || !open.id) return;
        setSession({
          status: 'disconnected',
          id: open.id,
          name: open.name ?? '',
          machine_status: (open.session_status === 'open'
            ? 'in_game'
            : (open.machine_status ?? 'unknown')) as SessionNotification['machine_status'],
          session_id: '',
        });
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [onGame]);

  useEffect(() => {
    const offSession = notificationSocket.on('session', (data) => {
      setSession(data.status === 'disconnected' ? data : null);
    });
    const offInfo = notificationSocket.on('info', (info) =>
      handleInfo(info, () => {
        if (window.location.pathname.startsWith('/game/')) navigate(paths.lobby);
      }),
    );
    return () => {
      offSession();
      offInfo();
    };
  }, [navigate]);

  // The game screen owns its session; the dialog is for coming back to it from elsewhere.
  if (!session || onGame) return null;
  const variant = reconnectVariant(session.machine_status);
  const name = session.name || String(session.id);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      toast.error(messageForError(error));
    } finally {
      setBusy(false);
    }
  };
  const rejoin = () => {
    setSession(null);
    navigate(paths.game(session.id, name));
  };
  return (
    <Dialog
      open
      role="alertdialog"
      title={t('reconnect.title')}
      onClose={() => setSession(null)}
      closeLabel={t('common.close')}
      actions={
        <>
          {variant === 'in_game' ? (
            <Button
              variant="danger"
              busy={busy}
              onClick={() =>
                run(async () => {
                  await kickSession(session.id);
                  setSession(null);
                })
              }
            >
              {t('reconnect.kick')}
            </Button>
          ) : null}
          {variant === 'in_bonus' || variant === 'waiting' ? (
            <>
              <Button
                variant="secondary"
                busy={busy}
                onClick={() =>
                  run(async () => {
                    await cancelSession(session.id);
                    rejoin();
                  })
                }
              >
                {t('reconnect.cancel')}
              </Button>
              <Button
                variant="secondary"
                onClick={() => {
                  setSession(null);
                  navigate(`${paths.game(session.id, name)}?cashout=1`);
                }}
              >
                {t('reconnect.cashout')}
              </Button>
              <Button onClick={rejoin}>{t('reconnect.continue')}</Button>
            </>
          ) : (
            <Button variant="ghost" onClick={() => setSession(null)}>
              {t('reconnect.lobbyReturn')}
            </Button>
          )}
        </>
      }
    >
      <p>{t(`reconnect.${variant}`, { name })}</p>
    </Dialog>
  );
}
