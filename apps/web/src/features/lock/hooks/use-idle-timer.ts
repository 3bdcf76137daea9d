import { useEffect, useRef } from 'react';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * Calls onIdle once after `timeoutMs` without user activity. Activity only records a timestamp
 * (pointermove fires constantly); one timer re-arms itself for the remaining time.
 */
export function useIdleTimer(timeoutMs: number, onIdle: () => void, enabled: boolean): void {
  const onIdleRef = useRef(onIdle);
  onIdleRef.current = onIdle;
  useEffect(() => {
    if (!enabled) return;
    let lastActivityMs = Date.now();
    let timer: ReturnType<typeof setTimeout>;
    const check = () => {
      const idleMs = Date.now() - lastActivityMs;
      if (idleMs >= timeoutMs) onIdleRef.current();
      else timer = setTimeout(check, timeoutMs - idleMs);
    };
    const onActivity = () => {
      lastActivityMs = Date.now();
    };
    timer = setTimeout(check, timeoutMs);
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true, capture: true });
    return () => {
      clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
    };
  }, [timeoutMs, enabled]);
}
