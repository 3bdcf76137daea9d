import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { QueryState } from '../components/query-state';
import { useFloor } from '../floor/use-floor';

/**
 * The machines whose big win waits for staff (the floor's `handPaysWaiting`, pushed live). The
 * contract names no hand-pay queue or approval route yet, so the screen shows where they wait and
 * who plays there; approving (and the second signer) comes with that route.
 */
export function HandPaysPage() {
  const { t } = useTranslation('admin');
  const { query } = useFloor();
  return (
    <section className="admin-page">
      <h1>{t('handPays.heading')}</h1>
      <QueryState query={query}>
        {(snapshot) => {
          const waiting = snapshot.machines.filter((machine) => machine.handPaysWaiting > 0);
          if (waiting.length === 0) return <p>{t('handPays.empty')}</p>;
          return (
            <table className="admin-table">
              <thead>
                <tr>
                  <th>{t('handPays.machine')}</th>
                  <th>{t('handPays.player')}</th>
                  <th>{t('handPays.waiting')}</th>
                </tr>
              </thead>
              <tbody>
                {waiting.map((machine) => (
                  <tr key={machine.machineId}>
                    <td>{machine.name}</td>
                    <td>
                      {machine.session ? <Link to={`/admin/players/${machine.session.playerId}`}>{machine.session.username}</Link> : '—'}
                    </td>
                    <td className="admin-num">{machine.handPaysWaiting}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          );
        }}
      </QueryState>
    </section>
  );
}
