import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../components/query-state';
import { MachineRow } from './machine-row';
import { useFloor } from './use-floor';

/** The session clocks tick once a second for the whole table, not per row. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Every machine live: the snapshot first, then the staff channel's pushes (never polled). */
export function FloorPage() {
  const { t } = useTranslation('admin');
  const { query, live } = useFloor();
  const now = useNow();

  return (
    <section className="admin-page">
      <header className="admin-toolbar">
        <h1>{t('floor.heading')}</h1>
        <span role="status" className={live ? 'admin-badge admin-badge--ok' : 'admin-badge'}>
          {live ? t('floor.live') : t('floor.connecting')}
        </span>
      </header>
      <QueryState query={query}>
        {(snapshot) => (
          <table className="admin-table admin-floor">
            <thead>
              <tr>
                <th>{t('floor.machine')}</th>
                <th>{t('floor.status')}</th>
                <th>{t('floor.player')}</th>
                <th>{t('floor.credits')}</th>
                <th>{t('floor.sessionTime')}</th>
                <th>{t('floor.net')}</th>
                <th>{t('floor.health')}</th>
                <th>{t('floor.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {snapshot.machines.map((machine) => (
                <MachineRow key={machine.machineId} machine={machine} now={now} />
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </section>
  );
}
