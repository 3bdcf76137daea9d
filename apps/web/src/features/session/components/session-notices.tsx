import type { SessionNotification } from '@reel/protocol/client';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ReconnectDialog } from '@/components/reconnect-dialog';
import { paths } from '@/config/paths';
import { notificationSocket } from '@/lib/notification-socket';
import { reconnectVariant, type ReconnectAction } from '@/lib/reconnect-rules';
import { handleInfo } from '@/lib/session-info';
import { useBusyAction } from '@/lib/use-busy-action';
import { cancelSession } from '../api/cancel-session';
import { getOpenSession } from '../api/get-open-session';
import { kickSession } from '../api/kick-session';

export function SessionNotices() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [session, setSession] = useState<SessionNotification | null>(null);
  const { busy, run } = useBusyAction();
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
  const name = session.name || String(session.id);
  const rejoin = () => {
    setSession(null);
    navigate(paths.game(session.id, name));
  };
  const onAction = (action: ReconnectAction) => {
    switch (action) {
      case 'kick':
        return void run(async () => {
          await kickSession(session.id);
          setSession(null);
        });
      case 'cancel':
        return void run(async () => {
          await cancelSession(session.id);
          rejoin();
        });
      case 'cashout':
        setSession(null);
        return navigate(`${paths.game(session.id, name)}?cashout=1`);
      case 'continue':
        return rejoin();
      case 'wait':
        // The lobby is where one waits; the next session push opens the dialog again.
        return setSession(null);
    }
  };
  return (
    <ReconnectDialog
      open
      variant={reconnectVariant(session.machine_status)}
      name={name}
      busy={busy}
      onAction={onAction}
      onClose={() => setSession(null)}
    />
  );
}
