import type { FloorSnapshot } from '@reel/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { adminApi } from '../lib/admin-api';
import { AdminFloorPath } from '../lib/contract';
import { useOperatorSession } from '../lib/operator-session';
import { FLOOR_KEY, openFloorFeed } from './floor-feed';

/** The floor: the REST snapshot first, then the staff channel's pushes while a screen shows it. */
export function useFloor() {
  const queryClient = useQueryClient();
  const token = useOperatorSession((state) => state.token);
  const [live, setLive] = useState(false);
  const query = useQuery({
    queryKey: FLOOR_KEY,
    queryFn: () => adminApi.get<FloorSnapshot>(AdminFloorPath.floor),
    staleTime: Infinity,
  });
  useEffect(() => (token ? openFloorFeed({ token, queryClient, onLive: setLive }) : undefined), [token, queryClient]);
  return { query, live };
}
