import type { Machine } from '@reel/protocol/client';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { JoinQueueButton } from '@/features/queue';
import { machinePicture } from '../first-pictures';
import { useLobbySelect } from '../api/lobby-query';
import { usePictureRound } from '../hooks/use-picture-round';
import { StatusBadge } from './status-badge';

/**
 * Each card reads only its own live status, so one push re-renders one card. `eager` is for the
 * cards a lobby shows first: their pictures are the page's largest paint and must not wait for
 * layout the way lazy ones do.
 */
export const MachineCard = memo(function MachineCard({ machine, eager = false }: { machine: Machine; eager?: boolean }) {
  const { t } = useTranslation();
  const { data: status = machine.status } = useLobbySelect((snapshot) => snapshot.statuses[machine.id] ?? machine.status);
  const { data: hot = machine.hot } = useLobbySelect((snapshot) => snapshot.hot[machine.id] ?? machine.hot);
  const { data: queue = machine.queue ?? 0 } = useLobbySelect((snapshot) => snapshot.queues[machine.id] ?? machine.queue ?? 0);
  const playable = status === 'available';
  // Someone is on it (or its line holds it): the player may wait their turn.
  const queueable = status === 'playing' || status === 'waiting' || (status === 'reserved' && queue > 0);
  // Someone plays it (or it waits for them): anyone may watch.
  const watchable = status === 'playing' || status === 'waiting';
  const apiBase = useRuntimeSettings((state) => state.settings.API_URL);
  // The computed path shows the machine as it is now: asked again each lobby refresh round.
  const round = usePictureRound();
  const picture = machinePicture(machine, apiBase, round);
  return (
    <article className={`machine machine--${status}`} aria-label={machine.name} data-machine-id={machine.id}>
      <div className="machine__art" aria-hidden="true">
        {/* An eager picture is the page's largest paint and already in the cache (first-pictures):
            decoded with the commit it paints in the same frame as the grid, not one after. */}
        <img
          src={picture}
          alt=""
          loading={eager ? 'eager' : 'lazy'}
          decoding={eager ? 'sync' : 'async'}
          fetchPriority={eager ? 'high' : undefined}
          width={320}
          height={180}
        />
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
        {queue > 0 ? <span className="machine__queue">{t('queue.inLine', { count: queue })}</span> : null}
        {queueable ? <JoinQueueButton machineId={machine.id} machineName={machine.name} /> : null}
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
      {watchable ? (
        <Link className="btn btn--ghost btn--small machine__watch" to={paths.watch(machine.id, machine.name)}>
          <Icon name="visibility" size={18} />
          <span>{t('lobby.watch')}</span>
          <span className="visually-hidden"> {machine.name}</span>
        </Link>
      ) : null}
    </article>
  );
});
