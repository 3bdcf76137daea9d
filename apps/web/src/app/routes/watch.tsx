import { useParams } from 'react-router';
import { JoinQueueButton } from '@/features/queue';
import { WatchPage } from '@/features/watch';

/**
 * A spectator's page. The queue's "Join queue" goes into WatchPage's `queueSlot` here (features/queue
 * exports it), so neither feature reaches into the other.
 */
export function WatchRoute() {
  const params = useParams();
  const machineId = Number(params.id);
  const machineName = decodeURIComponent(params.name ?? '').replace(/-/g, ' ');
  return <WatchPage queueSlot={<JoinQueueButton machineId={machineId} machineName={machineName} />} />;
}
