import type { AdminChannelMessage, FloorMachine, FloorSnapshot } from '@reel/protocol';
import { Backoff } from '@reel/process/backoff';
import type { QueryClient } from '@tanstack/react-query';
import { backendSocketUrl } from '@/lib/api-client';
import { adminApi } from '../lib/admin-api';
import { ADMIN_WS_PATH, AdminPath } from '../lib/contract';

export const FLOOR_KEY = ['admin', 'floor'] as const;

/** The staff channel comes back quickly after a server restart, never faster than 0.5 s apart. */
const RECONNECT = { initialMs: 500, maxMs: 10_000, jitter: 0.2 };

/** One machine's push, written over its row in the floor snapshot (a new machine is added). */
function applyMachine(snapshot: FloorSnapshot | undefined, machine: FloorMachine): FloorSnapshot | undefined {
  if (!snapshot) return snapshot;
  const known = snapshot.machines.some((row) => row.machineId === machine.machineId);
  const machines = known
    ? snapshot.machines.map((row) => (row.machineId === machine.machineId ? machine : row))
    : [...snapshot.machines, machine];
  return { ...snapshot, machines };
}

interface FloorFeedOptions {
  token: string;
  queryClient: QueryClient;
  onLive: (live: boolean) => void;
  createSocket?: (url: string) => WebSocket;
}

/**
 * The staff channel (`/ws/admin`): its pushes are written into the floor's query cache, a whole
 * snapshot (`floor`) or one machine (`machine`); the floor is never polled. Reconnects with backoff.
 * When the channel refuses the token (`logout`) it stops, and the REST API is asked who the token
 * is: a 401 there signs the operator out (admin-api), anything else leaves the console as it is.
 * Returns the function that closes it.
 */
export function openFloorFeed({ token, queryClient, onLive, createSocket = (url) => new WebSocket(url) }: FloorFeedOptions): () => void {
  const backoff = new Backoff(RECONNECT);
  let socket: WebSocket | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const connect = () => {
    socket = createSocket(backendSocketUrl(ADMIN_WS_PATH, token));
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as AdminChannelMessage | { event: 'logout' };
      if (message.event === 'logout') {
        closed = true;
        void adminApi.get(AdminPath.me).catch(() => undefined);
      } else if (message.event === 'floor') {
        backoff.reset();
        onLive(true);
        queryClient.setQueryData(FLOOR_KEY, message.data);
      } else if (message.event === 'machine') {
        queryClient.setQueryData<FloorSnapshot>(FLOOR_KEY, (snapshot) => applyMachine(snapshot, message.data));
      }
    };
    socket.onclose = () => {
      onLive(false);
      if (!closed) retry = setTimeout(connect, backoff.next());
    };
  };
  connect();
  return () => {
    closed = true;
    clearTimeout(retry);
    socket?.close();
  };
}
