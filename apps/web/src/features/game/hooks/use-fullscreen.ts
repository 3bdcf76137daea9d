import { useEffect, useState } from 'react';
import { isAppleHandheld } from '../game-rules';

/** iPhone, iPod and iPad cannot take an element fullscreen, so the toggle is hidden there. */
export function canUseFullscreen(userAgent: string = navigator.userAgent): boolean {
  return !isAppleHandheld(userAgent) && typeof document.documentElement.requestFullscreen === 'function';
}

export function useFullscreen() {
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const onChange = () => setFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return { fullscreen, toggle };
}
