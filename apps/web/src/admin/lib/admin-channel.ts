import type { AdminChannelMessage, FloorMachine, FloorSnapshot } from '@reel/protocol';
import { Backoff } from '@reel/process/backoff';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { backendSocketUrl } from '@/lib/api-client';
import { applyChatPush, CHAT_KEY } from '../support/chat-cache';
import { adminApi } from './admin-api';
import { ADMIN_WS_PATH, AdminPath } from './contract';
import { useOperatorSession } from './operator-session';

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

interface AdminChannelOptions {
  token: string;
  queryClient: QueryClient;
  onLive: (live: boolean) => void;
  createSocket?: (url: string) => WebSocket;
}

/**
 * The staff channel (`/ws/admin`): its pushes are written into the query cache, the floor's whole
 * snapshot (`floor`) or one machine (`machine`), and support chat lines (`chat`); neither is
 * polled. Reconnects with backoff. The snapshot comes first on every (re)connect: the chat is then
 * asked again once, for the lines written while no channel was attached. When the channel refuses
 * the token (`logout`) it stops, and the REST API is asked who the token is: a 401 there signs the
 * operator out (admin-api), anything else leaves the console as it is. Returns the function that
 * closes it.
 */
function openAdminChannel({ token, queryClient, onLive, createSocket = (url) => new WebSocket(url) }: AdminChannelOptions): () => void {
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
        void queryClient.invalidateQueries({ queryKey: CHAT_KEY });
      } else if (message.event === 'machine') {
        queryClient.setQueryData<FloorSnapshot>(FLOOR_KEY, (snapshot) => applyMachine(snapshot, message.data));
      } else if (message.event === 'chat') {
        applyChatPush(queryClient, message.data);
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

/** The staff channel while a screen that shows its pushes is mounted; answers whether it is live. */
export function useAdminChannel(): boolean {
  const queryClient = useQueryClient();
  const token = useOperatorSession((state) => state.token);
  const [live, setLive] = useState(false);
  useEffect(() => (token ? openAdminChannel({ token, queryClient, onLive: setLive }) : undefined), [token, queryClient]);
  return live;
}
