import { afterEach, describe, expect, it, vi } from 'vitest';

/** A matchMedia whose portrait query the test turns. */
function fakeOrientation(portrait: boolean) {
  const listeners: (() => void)[] = [];
  const query = {
    matches: portrait,
    addEventListener: (_: string, listener: () => void) => listeners.push(listener),
    removeEventListener: () => undefined,
  };
  vi.stubGlobal('matchMedia', (text: string) => (text === '(orientation: portrait)' ? query : { matches: false, addEventListener() {}, removeEventListener() {} }));
  return {
    turn(next: boolean) {
      query.matches = next;
      for (const listener of listeners) listener();
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('the game view state layout field', () => {
  it('starts as the screen is held and follows it when the phone turns, through a leave too', async () => {
    const orientation = fakeOrientation(true);
    const { gameActions, useGameStore } = await import('./game-store');
    expect(useGameStore.getState().layout).toBe('portrait');
    orientation.turn(false);
    expect(useGameStore.getState().layout).toBe('landscape');
    gameActions.leave();
    expect(useGameStore.getState().layout).toBe('landscape');
    orientation.turn(true);
    expect(useGameStore.getState().layout).toBe('portrait');
  });
});
