import type { FloorSnapshot } from '@reel/protocol';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../lib/admin-api';
import { FLOOR_KEY, useAdminChannel } from '../lib/admin-channel';
import { AdminFloorPath } from '../lib/contract';

/** The floor: the REST snapshot first, then the staff channel's pushes while a screen shows it. */
export function useFloor() {
  const query = useQuery({
    queryKey: FLOOR_KEY,
    queryFn: () => adminApi.get<FloorSnapshot>(AdminFloorPath.floor),
    staleTime: Infinity,
  });
  const live = useAdminChannel();
  return { query, live };
}
