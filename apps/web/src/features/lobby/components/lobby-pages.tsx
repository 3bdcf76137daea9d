import type { BrandWithMachines, MachineStatus } from '@reel/protocol/client';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { messageForError } from '@/lib/auth';
import { parseJackpots } from '@/lib/money';
import { useMoney } from '@/lib/use-money';
import { EAGER_CARDS, reservedMachines } from '../first-pictures';
import { countStatuses, loadLobby, subscribeLobby } from '../api/lobby-live';
import { useLobbySelect } from '../api/lobby-query';
import { MachineCard } from './machine-card';
import { MachineGrid } from './machine-grid';
import { STATUS_ORDER } from './status-badge';

const NO_GROUPS: BrandWithMachines[] = [];
const NO_STATUSES: Record<number, MachineStatus> = {};

function useLobby() {
  const { data: groups = NO_GROUPS, status, fetchStatus, error } = useLobbySelect((snapshot) => snapshot.groups);
  // A failed lobby asked again shows the spinner, as its first load does; a shown one stays while it refreshes.
  const phase = status === 'success' ? 'ready' : status === 'error' && fetchStatus === 'idle' ? 'error' : 'loading';
  useEffect(() => {
    const unsubscribe = subscribeLobby();
    void loadLobby();
    return unsubscribe;
  }, []);
  return { phase, groups, error };
}

function Jackpots({ brandId, fallback }: { brandId: number; fallback: string }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { data: jackpot = fallback } = useLobbySelect((snapshot) => snapshot.jackpots[brandId] ?? fallback);
  const values = parseJackpots(jackpot);
  if (values.length === 0) return <p className="muted small">{t('lobby.noJackpots')}</p>;
  return (
    <ul className="jackpots" aria-label={t('lobby.jackpots')}>
      {values.map((value, index) => (
        <li key={index} className={`jackpot jackpot--${index}`}>
          {money(value)}
        </li>
      ))}
    </ul>
  );
}

function LobbyState({ phase, error, empty }: { phase: string; error: unknown; empty: boolean }) {
  const { t } = useTranslation();
  if (phase === 'loading' || phase === 'idle') return <Spinner label={t('common.loading')} />;
  if (phase === 'error')
    return (
      <div className="card center-text" role="alert">
        <p>{t('lobby.loadError')}</p>
        <p className="muted small">{messageForError(error)}</p>
        <Button variant="secondary" onClick={() => void loadLobby()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  if (empty) return <p className="muted">{t('lobby.noGroups')}</p>;
  return null;
}

function BrandCard({ group }: { group: BrandWithMachines }) {
  const { t } = useTranslation();
  const { data: statuses = NO_STATUSES } = useLobbySelect((snapshot) => snapshot.statuses);
  const ids = useMemo(() => group.machines.map((machine) => machine.id), [group.machines]);
  const counts = countStatuses(ids, statuses);
  const titleId = `brand-${group.brand.id}`;
  return (
    <article className="brand-card" aria-labelledby={titleId}>
      <div className="brand-card__art" aria-hidden="true">
        {group.brand.image ? (
          <img src={group.brand.image} alt="" loading="lazy" />
        ) : (
          <span>{group.brand.name.slice(0, 2).toUpperCase()}</span>
        )}
      </div>
      <div className="brand-card__body">
        <h2 id={titleId} className="brand-card__name">
          <Link to={paths.lobbyGroup(group.brand.id, group.brand.name)} className="stretched-link">
            {group.brand.name}
          </Link>
        </h2>
        <p className="brand-card__count">
          {t('lobby.machineCount', { count: group.brand.machineCount ?? 0 })}
        </p>
        <Jackpots brandId={group.brand.id} fallback={group.brand.jackpot} />
        <p className="brand-card__available">
          <span className="status__dot status--available" aria-hidden="true" /> {t('lobby.status.available')}:{' '}
          {counts.available}
        </p>
      </div>
      <Icon name="chevron" className="brand-card__chevron flip-rtl" />
    </article>
  );
}

function ReservedMachines({ groups }: { groups: BrandWithMachines[] }) {
  const { t } = useTranslation();
  const reserved = reservedMachines(groups);
  if (reserved.length === 0) return null;
  return (
    <section className="section" aria-labelledby="reserved-title">
      <h2 id="reserved-title" className="section__title">
        {t('lobby.reserved')}
      </h2>
      <div className="machine-list">
        {reserved.map((machine, index) => (
          <MachineCard key={machine.id} machine={machine} eager={index < EAGER_CARDS} />
        ))}
      </div>
    </section>
  );
}

/**
 * The filter chips with their live counts. They subscribe to every status on their own, so a push
 * re-renders them and the cards it changed, not the grid.
 */
function StatusChips({
  group,
  filter,
  onFilter,
}: {
  group: BrandWithMachines;
  filter: MachineStatus | 'all';
  onFilter: (filter: MachineStatus | 'all') => void;
}) {
  const { t } = useTranslation();
  const { data: statuses = NO_STATUSES } = useLobbySelect((snapshot) => snapshot.statuses);
  const ids = useMemo(() => group.machines.map((machine) => machine.id), [group.machines]);
  const counts = countStatuses(ids, statuses);
  return (
    <div className="chips" role="group" aria-label={t('lobby.filter')}>
      <button type="button" className="chip" aria-pressed={filter === 'all'} onClick={() => onFilter('all')}>
        {t('lobby.all')} <span className="chip__count">{group.machines.length}</span>
      </button>
      {STATUS_ORDER.map((status) => (
        <button
          key={status}
          type="button"
          className={`chip chip--${status}`}
          aria-pressed={filter === status}
          onClick={() => onFilter(status)}
          data-testid={`count-${status}`}
        >
          {t(`lobby.status.${status}`)} <span className="chip__count">{counts[status]}</span>
        </button>
      ))}
    </div>
  );
}

function GroupMachines({ group }: { group: BrandWithMachines }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<MachineStatus | 'all'>('all');
  // With a filter the list follows live status; without one it does not read statuses at all, so
  // a push does not re-render the grid.
  const { data: liveStatuses = NO_STATUSES } = useLobbySelect((snapshot) =>
    filter === 'all' ? NO_STATUSES : snapshot.statuses,
  );
  const machines = useMemo(
    () =>
      filter === 'all'
        ? group.machines
        : group.machines.filter((machine) => (liveStatuses[machine.id] ?? machine.status) === filter),
    [filter, group.machines, liveStatuses],
  );
  return (
    <>
      <StatusChips group={group} filter={filter} onFilter={setFilter} />
      {group.machines.length === 0 ? (
        <p className="muted">{t('lobby.empty')}</p>
      ) : (
        <MachineGrid machines={machines} label={t('lobby.machines')} />
      )}
    </>
  );
}

export function LobbyPage() {
  const { t } = useTranslation();
  const single = useRuntimeSettings((state) => state.settings.SINGLE_LOBBY);
  const { phase, groups, error } = useLobby();
  const totalSlots = groups.reduce(
    (sum, group) => sum + (group.brand.machineCount ?? group.machines.length),
    0,
  );
  const only = single ? groups[0] : undefined;
  return (
    <div className="page lobby">
      <header className="page__header lobby__header">
        <h1>{only ? only.brand.name : t('lobby.title')}</h1>
        <p className="lobby__total">
          <Icon name="casino" size={20} /> {t('lobby.totalSlots', { count: totalSlots })}
        </p>
      </header>
      <LobbyState phase={phase} error={error} empty={groups.length === 0} />
      {phase === 'ready' && only ? (
        <GroupMachines group={only} />
      ) : phase === 'ready' ? (
        <>
          <div className="brand-grid">
            {groups.map((group) => (
              <BrandCard key={group.brand.id} group={group} />
            ))}
          </div>
          <ReservedMachines groups={groups} />
        </>
      ) : null}
    </div>
  );
}

export function LobbyGroupPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { phase, groups, error } = useLobby();
  const group = groups.find((entry) => String(entry.brand.id) === id);
  return (
    <div className="page lobby">
      <nav className="breadcrumbs" aria-label={t('lobby.allGroups')}>
        <Link to={paths.lobby} className="back-link">
          <Icon name="back" size={18} className="flip-rtl" /> {t('lobby.allGroups')}
        </Link>
      </nav>
      <header className="page__header lobby__header">
        <h1>{group?.brand.name ?? t('lobby.title')}</h1>
        {group ? (
          <div className="lobby__meta">
            <p className="lobby__total">
              {t('lobby.machineCount', { count: group.brand.machineCount ?? group.machines.length })}
            </p>
            <Jackpots brandId={group.brand.id} fallback={group.brand.jackpot} />
          </div>
        ) : null}
      </header>
      <LobbyState phase={phase} error={error} empty={groups.length === 0} />
      {phase === 'ready' && group ? <GroupMachines group={group} /> : null}
      {phase === 'ready' && !group && groups.length > 0 ? <p className="muted">{t('lobby.empty')}</p> : null}
    </div>
  );
}
