/** A session as the server holds it in memory while it is open, and the `slot_sessions` row it mirrors. */
import type { VideoType } from '@reel/protocol';

export interface LiveSession {
  id: string;
  playerId: number;
  machineId: number;
  machineName: string;
  status: 'active' | 'disconnected' | 'cashing_out';
  startedAt: Date;
  lastActivityMs: number;
  disconnectedAtMs: number | null;
  /** Countdown already announced (so each count is sent once per second, and again on reconnect). */
  lastCountSent: number | null;
  closing: boolean;
  /**
   * The close under way, if any. The timer tick finishes closes that a restart or an absent
   * machine interrupted; without this it would start a second cash out beside a running one and
   * reopen the closed session row (the lobby then kept showing the machine as Playing).
   */
  closeInFlight: Promise<void> | null;
  /** A close that failed (machine away) is tried again after this time. */
  retryCloseAtMs: number;
  /** A cash out under way (the timer finishes an interrupted one, but never starts a second). */
  settleInFlight: Promise<void> | null;
  /** The machine's meters did not follow from the records: play stopped, credits paid from the records. */
  held: { amountCents: number } | null;
  /**
   * The picture the player chose (`view`). Memory only: a session reloaded after a restart shows
   * the screen, like a cabinet that restarted.
   */
  videoType: VideoType;
}

export interface SessionRow {
  id: string;
  player_id: number;
  machine_id: number;
  status: LiveSession['status'] | 'joining' | 'closed';
  started_at: Date;
  spins: number;
  free_spins: number;
  cash_in_cents: number;
  cash_out_cents: number;
  win_cents: number;
  bet_cents: number;
  disconnected_at: Date | null;
  last_activity_at: Date;
  closing: boolean;
  malfunction: { paidCents: number } | null;
}

export function liveSessionFromRow(row: SessionRow, machineName: string): LiveSession {
  return {
    id: row.id,
    playerId: row.player_id,
    machineId: row.machine_id,
    machineName,
    status: row.status === 'cashing_out' ? 'cashing_out' : row.status === 'disconnected' ? 'disconnected' : 'active',
    startedAt: row.started_at,
    lastActivityMs: row.last_activity_at.getTime(),
    disconnectedAtMs: row.disconnected_at?.getTime() ?? null,
    lastCountSent: null,
    closing: row.closing,
    closeInFlight: null,
    retryCloseAtMs: 0,
    settleInFlight: null,
    held: row.malfunction ? { amountCents: row.malfunction.paidCents } : null,
    videoType: 'screen',
  };
}
