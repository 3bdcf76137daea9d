import { ApiPath, type QueueEntry, type QueueResponse } from '@reel/protocol/client';
import { api, apiRequest } from '@/lib/api-client';

/** The player's queue entry (null: in no line). */
export async function getQueue(signal?: AbortSignal): Promise<QueueEntry | null> {
  return (await api.get<QueueResponse>(ApiPath.queue, { signal })).entry;
}

/** Joins the machine's line; the answer is the new entry (position, wait). */
export async function joinQueue(machineId: number): Promise<QueueEntry | null> {
  return (await api.post<QueueResponse>(ApiPath.queue, { machineId })).entry;
}

/** Leaves the line (also declines a ready check). */
export async function leaveQueue(): Promise<void> {
  await apiRequest(ApiPath.queue, { method: 'DELETE' });
}
