import type { MachineStatus } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';

export const STATUS_ORDER: readonly MachineStatus[] = ['available', 'playing', 'waiting', 'reserved', 'not_available'];

export function StatusBadge({ status }: { status: MachineStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`status status--${status}`} data-status={status}>
      <span className="status__dot" aria-hidden="true" />
      {t(`lobby.status.${status}`)}
    </span>
  );
}
