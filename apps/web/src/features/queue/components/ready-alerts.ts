/**
 * What draws a player back for their turn while the page is not in front of them: a chime, a
 * browser notification (when they allowed it), and the tab's title blinking until they answer.
 */

/** Asked when the player joins a queue (a click: browsers ask only after one). */
export function askNotificationPermission(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

export function notifyBrowser(title: string, body: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    new Notification(title, { body, tag: 'reel-queue-ready' });
  } catch {
    // Some browsers allow notifications only from a service worker: the other alerts remain.
  }
}

/** Two short rising tones. */
export function playChime(): void {
  if (typeof AudioContext === 'undefined') return;
  try {
    const context = new AudioContext();
    [660, 880].forEach((frequency, index) => {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      const start = context.currentTime + index * 0.18;
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.16);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start);
      oscillator.stop(start + 0.17);
    });
    setTimeout(() => void context.close().catch(() => undefined), 600);
  } catch {
    // No sound where audio is not allowed yet; the other alerts remain.
  }
}

/** Alternates the page title with `text` until the returned function is called. */
export function blinkTitle(text: string, periodMs = 800): () => void {
  const original = document.title;
  let showing = false;
  const timer = setInterval(() => {
    showing = !showing;
    document.title = showing ? text : original;
  }, periodMs);
  return () => {
    clearInterval(timer);
    document.title = original;
  };
}
