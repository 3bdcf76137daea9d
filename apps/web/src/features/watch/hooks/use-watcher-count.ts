import { useEffect, useState } from 'react';
import { notificationSocket } from '@/lib/notification-socket';

/**
 * How many spectators watch `machineId`, from the lobby's `watchers` pushes (conflated by the server
 * to one per 100 ms). The player's game screen shows it; 0 until the first push.
 */
export function useWatcherCount(machineId: number): number {
  const [count, setCount] = useState(0);
  useEffect(() => notificationSocket.on('watchers', (data) => data.id === machineId && setCount(data.count)), [machineId]);
  return count;
}
