import { useEffect, useState } from 'react';
import { onAppleHandheld } from '../game-rules';

/** iPhone, iPod and iPad (iPadOS too) cannot take an element fullscreen, so the toggle is hidden there. */
export function canUseFullscreen(): boolean {
  return !onAppleHandheld() && typeof document.documentElement.requestFullscreen === 'function';
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
