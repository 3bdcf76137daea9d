import { startTransition, useEffect, useState } from 'react';

/**
 * Whether the page has had its first idle moment since start-up. Parts that are closed or off
 * screen on the first signed-in paint (side panels, the phone drawer's content) wait for it: their
 * render would otherwise run before the lobby's largest paint and count against it. Once true it
 * stays true, so later mounts render at once.
 */
let idle = false;
/**
 * How long after the first paint they wait before looking for idle time: the lobby's pictures and
 * grid land within it, and Lighthouse counts every task before the largest paint into it.
 */
const AFTER_PAINT_MS = 1000;
const waiting = new Set<() => void>();
let scheduled = false;

function scheduleIdle(): void {
  if (scheduled) return;
  scheduled = true;
  const done = () => {
    idle = true;
    // A transition renders in time slices: the deferred parts add no long task.
    startTransition(() => waiting.forEach((notify) => notify()));
    waiting.clear();
  };
  // After the next frame (the first paint) and the grace period, then when the main thread is free.
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(done, { timeout: 1000 });
      else done();
    }, AFTER_PAINT_MS),
  );
}

export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(idle);
  useEffect(() => {
    if (ready) return;
    const notify = () => setReady(true);
    waiting.add(notify);
    scheduleIdle();
    return () => {
      waiting.delete(notify);
    };
  }, [ready]);
  return ready;
}
