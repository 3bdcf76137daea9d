import { getSettings } from '@/config/runtime-settings';
import { useUserSettings } from '@/lib/user-settings';
import { useGameStore } from './stores/game-store';

/**
 * `CLICK_SOUND` (the operator's) and the player's own quick setting: a short click when the player
 * presses a game button. Synthesised with WebAudio
 * (no sound file to load), at the game's volume, which starts at the `VOLUME` setting and follows
 * the volume slider; silent while the game is muted, so one control decides all of the game's sound.
 */
let context: AudioContext | null = null;

const CLICK_MS = 40;

function clickVolume(): number {
  const { volume, muted } = useGameStore.getState();
  if (!getSettings().CLICK_SOUND || !useUserSettings.getState().settings.quickSettings.clickSound || muted)
    return 0;
  return Math.min(1, Math.max(0, volume));
}

function playClick(): void {
  const volume = clickVolume();
  if (volume === 0 || typeof AudioContext === 'undefined') return;
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') void context.resume();
    const now = context.currentTime;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'square';
    oscillator.frequency.value = 1_800;
    gain.gain.value = volume;
    // A fast decay makes a tick rather than a beep.
    gain.gain.setValueAtTime(volume, now);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + CLICK_MS / 1000);
    oscillator.connect(gain);
    gain.connect(context.destination);
    oscillator.start(now);
    oscillator.stop(now + CLICK_MS / 1000);
  } catch {
    // No audio device: the game plays on without the tick.
  }
}

/** For a container's onClickCapture: a press on an enabled button inside it clicks. */
export function clickOnButton(event: { target: EventTarget | null }): void {
  const target = event.target instanceof Element ? event.target.closest('button') : null;
  if (target && !target.disabled) playClick();
}
