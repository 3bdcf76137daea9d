import type { PublicPlay, StreamGrant } from '@reel/protocol/client';
import { useEffect, useState } from 'react';
import { useAuthStore } from '@/lib/auth-store';
import { WatchChannel } from '../api/watch-channel';

/** The last games shown beside the video. */
const PLAYS_SHOWN = 8;

interface WatchState {
  name: string | null;
  watchers: number;
  plays: PublicPlay[];
  /** The server's refusal (40935 full, 40936 nothing to watch...), with its Params. */
  refusal: { code: number; params?: Record<string, string | number> } | null;
  /** The first grant, from `watching`. */
  firstGrant: StreamGrant | null;
  lost: boolean;
}

/** Opens the watch socket for the machine while the page is shown. */
export function useWatch(machineId: number): { state: WatchState; channel: WatchChannel | null } {
  const token = useAuthStore((s) => s.token);
  const [channel, setChannel] = useState<WatchChannel | null>(null);
  const [state, setState] = useState<WatchState>({ name: null, watchers: 0, plays: [], refusal: null, firstGrant: null, lost: false });

  useEffect(() => {
    if (!token || !Number.isInteger(machineId)) return;
    const c = new WatchChannel();
    const offs = [
      c.on('watching', (d) => setState((s) => ({ ...s, name: d.name, watchers: d.watchers, firstGrant: d.stream }))),
      c.on('watchers', (d) => setState((s) => ({ ...s, watchers: d.count }))),
      c.on('play', (p) => setState((s) => ({ ...s, plays: [p, ...s.plays].slice(0, PLAYS_SHOWN) }))),
      c.on('error', (e) => {
        if (e.fatal) setState((s) => ({ ...s, refusal: { code: e.code, ...(e.Params ? { params: e.Params } : {}) } }));
      }),
      c.on('closed', (code) => setState((s) => ({ ...s, lost: code !== 1000 && s.refusal === null }))),
    ];
    c.open(machineId, token);
    setChannel(c);
    return () => {
      offs.forEach((off) => off());
      c.close();
      setChannel(null);
    };
  }, [machineId, token]);

  return { state, channel };
}
