import { useEffect, useRef } from 'react';

interface GameKeyHandlers {
  spin(): void;
  autoplay(): void;
  betUp(): void;
  betDown(): void;
  fullscreen(): void;
  mute(): void;
  escape(): void;
}

/** Keys a text field or slider needs for itself. */
function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && target.type !== 'checkbox' && target.type !== 'button';
}

/**
 * Space spins wherever focus is (a focused cash-in button must not take a second 50.00 on Space),
 * A toggles autoplay, + / - change the bet, F fullscreen, M sound, Esc closes the open panel.
 * Nothing fires while a modal dialog is open: the dialog owns the keyboard then.
 */
export function useGameKeys(handlers: GameKeyHandlers): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (document.querySelector('dialog[open]')) return;
      if (typingInto(event.target)) return;
      const h = ref.current;
      const key = event.key;
      if (key === ' ' || event.code === 'Space') {
        event.preventDefault();
        if (!event.repeat) h.spin();
        return;
      }
      if (key === 'Escape') return h.escape();
      if (event.repeat) return;
      switch (key.toLowerCase()) {
        case 'a':
          return h.autoplay();
        case '+':
        case '=':
        case 'arrowup':
          event.preventDefault();
          return h.betUp();
        case '-':
        case '_':
        case 'arrowdown':
          event.preventDefault();
          return h.betDown();
        case 'f':
          return h.fullscreen();
        case 'm':
          return h.mute();
      }
    };
    // Space's click on a focused button comes with keyup; swallow it, the keydown already spun.
    const onKeyUp = (event: KeyboardEvent) => {
      if (
        (event.key === ' ' || event.code === 'Space') &&
        !document.querySelector('dialog[open]') &&
        !typingInto(event.target)
      )
        event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('keyup', onKeyUp, true);
    return () => {
      window.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('keyup', onKeyUp, true);
    };
  }, []);
}
