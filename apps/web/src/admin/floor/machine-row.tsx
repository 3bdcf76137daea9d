import type { FloorMachine } from '@reel/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAdminFormat } from '../lib/use-admin-format';
import { MachineActions } from './machine-actions';

/** `h:mm:ss` since the session started. */
function sessionClock(startedAt: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(startedAt)) / 1000));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

function Status({ machine }: { machine: FloorMachine }) {
  const { t } = useTranslation('admin');
  return (
    <div className="admin-stack">
      <span>{machine.cabinetState}</span>
      {machine.emergencyStop ? (
        <span className="admin-badge admin-badge--bad" title={`${machine.emergencyStop.by}: ${machine.emergencyStop.reason}`}>
          {t('floor.emergencyStopped')}
        </span>
      ) : null}
      {machine.outOfService !== null ? (
        <span className="admin-badge admin-badge--warn" title={machine.outOfService}>
          {t('floor.outOfService')}
        </span>
      ) : null}
      {machine.handPaysWaiting > 0 ? (
        <Link className="admin-badge admin-badge--warn" to="/admin/hand-pays">
          {t('floor.handPays', { count: machine.handPaysWaiting })}
        </Link>
      ) : null}
    </div>
  );
}

function Health({ health }: { health: FloorMachine['health'] }) {
  const { t } = useTranslation('admin');
  return (
    <div className="admin-stack">
      <span className={health.connected ? 'admin-ok' : 'admin-bad'}>{health.connected ? t('floor.connected') : t('floor.disconnected')}</span>
      <span className={health.encoderRunning ? 'admin-ok' : 'admin-bad'} title={health.videoError ?? undefined}>
        {health.encoderRunning ? t('floor.encoder') : t('floor.encoderOff')}
      </span>
      {health.lastFrameAgeMs !== null ? <span>{t('floor.frameAge', { seconds: (health.lastFrameAgeMs / 1000).toFixed(1) })}</span> : null}
      {health.malfunctions > 0 ? <span className="admin-bad">{t('floor.malfunctions', { count: health.malfunctions })}</span> : null}
    </div>
  );
}

/** One machine of the floor: what it is doing, who plays it, its money and health, and the actions. */
export function MachineRow({ machine, now }: { machine: FloorMachine; now: number }) {
  const format = useAdminFormat();
  const { t } = useTranslation('admin');
  const session = machine.session;
  return (
    <tr data-machine={machine.machineId}>
      <th scope="row">
        {machine.name}
        <div className="admin-muted">{machine.brand}</div>
      </th>
      <td>
        <Status machine={machine} />
      </td>
      <td>{session ? <Link to={`/admin/players/${session.playerId}`}>{session.username}</Link> : t('floor.noPlayer')}</td>
      <td className="admin-num">{machine.creditsCents === null ? '—' : format.money(machine.creditsCents)}</td>
      <td className="admin-num">{session ? sessionClock(session.startedAt, now) : '—'}</td>
      <td className="admin-num">{session ? format.money(session.netCents) : '—'}</td>
      <td>
        <Health health={machine.health} />
      </td>
      <td>
        <MachineActions machine={machine} />
      </td>
    </tr>
  );
}
