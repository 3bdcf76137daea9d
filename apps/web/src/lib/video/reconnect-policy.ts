import type { BackoffPolicy } from '@reel/process/backoff';

/** Video comes back quickly at first: a rebuilt peer connection is cheap next to a frozen picture. */
export const VIDEO_RECONNECT_BACKOFF: BackoffPolicy = { initialMs: 300, maxMs: 8000, jitter: 0.25 };
/** How long `disconnected` may last before we rebuild the connection (ICE often recovers alone). */
export const DISCONNECTED_GRACE_MS = 2500;
