/**
 * A cabinet's critical memory (GLI-11 style NVRAM): the credit meter and the other meters, the bet
 * level, any fault, the last games, the games the server has not acknowledged storing yet (the
 * outbox), the game in progress and the command ids already applied. The
 * machine commits an image of it before it acknowledges anything that moves money (a credit in, a
 * cash out, a game's result) and before the reels of a game start to turn, so killing the process
 * at any moment loses nothing: on start the machine continues from the last committed image.
 *
 * `FileMemoryStore` keeps one file per machine: the image is written to a temporary file, fsync'ed,
 * renamed over the old one and the directory fsync'ed, so the file is always either the old image
 * or the new one, never a mix. A checksum guards against a damaged file.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, existsSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import type { CabinetFault, CommandResult, GameCycle, MachineMeters } from '@reel/protocol';

/** 2: the outbox of unacknowledged games (`unackedGames`). A version-1 image is migrated on load. */
export const MEMORY_VERSION = 2;
/** Games kept for recall (a real cabinet keeps at least the last 10). */
export const RECALL_GAMES = 10;
/**
 * Applied money commands (credit in, cash out) remembered for replays: the server sends a pending
 * one again at its next connection, long before 200 others. Spins and other commands are only ever
 * repeated within seconds (a duplicate frame), and their answers are bigger (a spin carries its
 * cycle), so fewer are kept.
 */
export const APPLIED_MONEY_LIMIT = 200;
export const APPLIED_OTHER_LIMIT = 20;

/** A game whose bet is taken and whose outcome is drawn, committed before the reels turn. */
export interface IncompleteGame {
  /** The id the game's cycle will carry (`${machineId}-${gamesPlayed}[-f${freeGamesPlayed}]`). */
  gameId: string;
  freeSpin: boolean;
  /** The bet the game pays on (a free spin pays on the bet of the spin that triggered the bonus). */
  betCents: number;
  stops: number[];
  jackpotHit: boolean;
  creditsBeforeCents: number;
  startedAtMs: number;
  /** The spin command that started it; null for autoplay and free spins. */
  commandId: string | null;
}

export interface MemoryImage {
  version: typeof MEMORY_VERSION;
  machineId: number;
  memoryId: string;
  meters: MachineMeters;
  fault: CabinetFault | null;
  bonusBetCents: number;
  /** Oldest first, at most RECALL_GAMES: for display and recall. */
  lastGames: GameCycle[];
  /**
   * The outbox: every game whose cycle the server has not acknowledged storing, oldest first. A game
   * stays here however many games follow it (a bonus round longer than the recall ring), and is sent
   * again after every reconnect until its `cycle_ack` arrives.
   */
  unackedGames: GameCycle[];
  incompleteGame: IncompleteGame | null;
  /**
   * The staff's emergency stop (their reason) while it holds: kept here so a restarted cabinet
   * still refuses every command until the server releases it. Absent in images written before it.
   */
  emergencyStop?: string | null;
  /** [commandId, first answer], oldest first. */
  appliedMoney: [string, CommandResult][];
  appliedOther: [string, CommandResult][];
}

export interface MemoryStore {
  /** The last committed image, or null for a new (or unreadable) memory. */
  load(): MemoryImage | null;
  /**
   * Commits the image as it is at the moment of the call (it is serialised at once) and resolves
   * when it is durable. Commits are written in call order; a newer one may replace an older one
   * still waiting, and both resolve when the newer is durable.
   */
  commit(image: MemoryImage): Promise<void>;
}

export function newMemoryImage(machineId: number, meters: MachineMeters): MemoryImage {
  return {
    version: MEMORY_VERSION,
    machineId,
    memoryId: randomUUID(),
    meters: { ...meters },
    fault: null,
    bonusBetCents: 0,
    lastGames: [],
    unackedGames: [],
    incompleteGame: null,
    appliedMoney: [],
    appliedOther: [],
  };
}

/** What older versions wrote: version 1 had no outbox. */
type StoredImage = MemoryImage | (Omit<MemoryImage, 'version' | 'unackedGames'> & { version: 1 });

/**
 * An image as this version keeps it, or null for an unknown version. Version 1 did not know which
 * of its last games the server had stored: all of them go to the outbox, and the server, which
 * stores each game once by its id, acknowledges the ones it has.
 */
function upgradeImage(stored: StoredImage): MemoryImage | null {
  if (stored.version === MEMORY_VERSION) return stored;
  if (stored.version === 1) return { ...stored, version: MEMORY_VERSION, unackedGames: [...stored.lastGames] };
  return null;
}

/** A memory that lives only as long as the process: the simulator's and unit tests' default. */
export class VolatileMemoryStore implements MemoryStore {
  /** The last committed image, serialised (a test "restarts" a machine from it). */
  committed: string | null = null;
  commits = 0;
  load(): MemoryImage | null {
    return this.committed ? upgradeImage(JSON.parse(this.committed) as StoredImage) : null;
  }
  commit(image: MemoryImage): Promise<void> {
    this.committed = JSON.stringify(image);
    this.commits++;
    return Promise.resolve();
  }
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

function checksum(body: string) {
  return createHash('sha256').update(body).digest('hex');
}

/** One file per machine under `dir`: `machine-<id>.json`. */
export class FileMemoryStore implements MemoryStore {
  readonly file: string;
  private writing = false;
  private next: { data: string; waiters: Waiter[] } | null = null;

  constructor(
    readonly dir: string,
    readonly machineId: number,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.file = path.join(dir, `machine-${machineId}.json`);
  }

  load(): MemoryImage | null {
    mkdirSync(this.dir, { recursive: true });
    if (!existsSync(this.file)) return null;
    try {
      const { sha256, body } = JSON.parse(readFileSync(this.file, 'utf8')) as {
        sha256: string;
        body: string;
      };
      if (checksum(body) !== sha256) throw new Error('checksum mismatch');
      const stored = JSON.parse(body) as StoredImage;
      const image = upgradeImage(stored);
      if (!image || image.machineId !== this.machineId) throw new Error("not this machine's memory");
      if (stored.version !== image.version)
        this.log(`machine ${this.machineId}: critical memory version ${stored.version} upgraded to ${image.version}`);
      return image;
    } catch (error) {
      // A damaged memory is kept for inspection; the machine starts with a new, empty one (and a new
      // memory id, so the server sees a cleared memory and holds any session on it).
      const aside = `${this.file}.damaged-${Date.now()}`;
      renameSync(this.file, aside);
      this.log(
        `machine ${this.machineId}: critical memory unreadable (${(error as Error).message}); moved to ${aside}`,
      );
      return null;
    }
  }

  commit(image: MemoryImage): Promise<void> {
    const body = JSON.stringify(image);
    const data = JSON.stringify({ sha256: checksum(body), body });
    return new Promise<void>((resolve, reject) => {
      if (this.next) {
        this.next.data = data;
        this.next.waiters.push({ resolve, reject });
      } else {
        this.next = { data, waiters: [{ resolve, reject }] };
      }
      this.pump();
    });
  }

  private pump() {
    if (this.writing || !this.next) return;
    const batch = this.next;
    this.next = null;
    this.writing = true;
    this.write(batch.data)
      .then(
        () => batch.waiters.forEach((w) => w.resolve()),
        (error: unknown) => batch.waiters.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.writing = false;
        this.pump();
      });
  }

  /** Temporary file, fsync, rename, fsync of the directory: the rename is the commit point. */
  private async write(data: string) {
    const tmp = `${this.file}.tmp`;
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, this.file);
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
