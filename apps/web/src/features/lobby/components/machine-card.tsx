import type { Machine } from '@reel/protocol/client';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useLobbyStore } from '../stores/lobby-store';
import { StatusBadge } from './status-badge';

/** Each card reads only its own live status, so one push re-renders one card. */
export const MachineCard = memo(function MachineCard({ machine }: { machine: Machine }) {
  const { t } = useTranslation();
  const status = useLobbyStore((state) => state.statuses[machine.id] ?? machine.status);
  const hot = useLobbyStore((state) => state.hot[machine.id] ?? machine.hot);
  const playable = status === 'available';
  return (
    <article className={`machine machine--${status}`} aria-label={machine.name} data-machine-id={machine.id}>
      <div className="machine__art" aria-hidden="true">
        {machine.image ? <img src={machine.image} alt="" loading="lazy" decoding="async" /> : <span className="machine__reels">7 7 7</span>}
        {hot ? (
          <span className="machine__hot">
            <Icon name="fire" size={14} />
            {t('lobby.hot')}
          </span>
        ) : null}
      </div>
      <div className="machine__body">
        <h3 className="machine__name" dir="auto">
          {machine.name}
        </h3>
        <StatusBadge status={status} />
      </div>
      {playable ? (
        <Link className="btn btn--primary btn--small machine__play" to={paths.game(machine.id, machine.name)}>
          <Icon name="play" size={18} />
          <span>{t('lobby.playShort')}</span>
          <span className="visually-hidden"> {machine.name}</span>
        </Link>
      ) : (
        <span className="btn btn--ghost btn--small machine__play" aria-disabled="true">
          <Icon name="play" size={18} />
          <span>{t('lobby.playShort')}</span>
        </span>
      )}
    </article>
  );
});
