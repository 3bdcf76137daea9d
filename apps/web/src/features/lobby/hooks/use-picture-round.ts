import { useEffect } from 'react';
import { create } from 'zustand';
import { getSettings } from '@/config/runtime-settings';

/**
 * A counter that steps every UPDATE_LOBBY seconds while at least one machine card is on screen:
 * the cards put it on their computed picture path, so the browser fetches each machine's current
 * screen still again (one timer for all cards, none once the lobby is left).
 */
const useRound = create<{ round: number }>(() => ({ round: 0 }));
let users = 0;
let timer: ReturnType<typeof setInterval> | undefined;

export function usePictureRound(): number {
  useEffect(() => {
    users += 1;
    if (users === 1) {
      const seconds = Math.max(1, Number(getSettings().UPDATE_LOBBY) || 10);
      timer = setInterval(() => useRound.setState((state) => ({ round: state.round + 1 })), seconds * 1000);
    }
    return () => {
      users -= 1;
      if (users === 0) clearInterval(timer);
    };
  }, []);
  return useRound((state) => state.round);
}
