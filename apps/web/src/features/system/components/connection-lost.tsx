import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationSocket, type SocketStatus } from '@/lib/notification-socket';

/** Brief blips are normal on mobile networks; only a drop that lasts this long is shown. */
const SHOW_AFTER_MS = 1500;

function useConnectionLost(): boolean {
  const [lost, setLost] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const evaluate = (status: SocketStatus) => {
      clearTimeout(timer);
      const down = status === 'reconnecting' || !navigator.onLine;
      if (down) timer = setTimeout(() => setLost(true), SHOW_AFTER_MS);
      else setLost(false);
    };
    const unsubscribe = notificationSocket.onStatus(evaluate);
    const onNetwork = () => evaluate(notificationSocket.getStatus());
    window.addEventListener('online', onNetwork);
    window.addEventListener('offline', onNetwork);
    evaluate(notificationSocket.getStatus());
    return () => {
      clearTimeout(timer);
      unsubscribe();
      window.removeEventListener('online', onNetwork);
      window.removeEventListener('offline', onNetwork);
    };
  }, []);
  return lost;
}

export function ConnectionLostNotice() {
  const { t } = useTranslation();
  const lost = useConnectionLost();
  if (!lost) return null;
  return (
    <div className="connection-lost" role="alert">
      <span className="spinner spinner--small" aria-hidden="true" />
      {t('common.connectionLost')}
    </div>
  );
}
