import { create } from 'zustand';

/**
 * Whether the player's machine is playing by itself (autoplay or a bonus round). The game feature
 * reports it; the idle lock reads it, so a player watching autoplay or free spins is never
 * interrupted by the idle prompt (docs/spec-decisions.md). It lives in lib because features never
 * import each other.
 */
export const usePlayActivity = create<{ busy: boolean }>(() => ({ busy: false }));

export function setPlayBusy(busy: boolean): void {
  if (usePlayActivity.getState().busy !== busy) usePlayActivity.setState({ busy });
}
