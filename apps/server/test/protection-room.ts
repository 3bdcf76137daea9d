/**
 * The session room of the player-protection tests (session-protection, autoplay-stops): one test
 * app, the player alice on the first machine of a fake cabinet, and a session manager whose
 * protection reads a controlled clock (`room.nowMs`). Each test starts with no limits, default
 * settings and a fresh manager, and ends with the ledger's own audit intact.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Db } from '../src/db/pool.js';
import { auditLedger } from '../src/modules/ledger/ledger.js';
import { createProtection, type Protection } from '../src/modules/protection/protection.js';
import { readSettings } from '../src/modules/settings/runtime-settings.js';
import { SessionManager } from '../src/modules/sessions/session-manager.js';
import { FakeCabinets } from './doubles/fake-cabinets.js';
import { createTestApp, writeSettings, type TestApp } from './helper.js';

const TIMERS = { graceMs: 60_000, noCreditsTimeoutMs: 30_000, idleTimeoutMs: 120_000, countdownS: 10 };

interface ProtectionRoom {
  t: TestApp;
  cabinets: FakeCabinets;
  sessions: SessionManager;
  protection: Protection;
  /** The clock every protection check reads; a test moves it. */
  nowMs: number;
  player: number;
  machine: number;
  /** Stops this test's session manager and starts another on `db` (a dying pool, say). */
  restart(db?: Db): Promise<void>;
  /** When a slot session started, by the database's record. */
  startedAt(sessionId: string): Promise<number>;
}

/** Registers the hooks and answers the room; its fields are set once `beforeAll`/`beforeEach` ran. */
export function useProtectionRoom(): ProtectionRoom {
  const room = {
    nowMs: 0,
    async restart(db?: Db) {
      await room.sessions.stop();
      room.sessions = managerOn(db ?? room.t.ctx.db);
      await room.sessions.start();
    },
    async startedAt(sessionId: string) {
      const { rows } = await room.t.ctx.db.query<{ started_at: Date }>('SELECT started_at FROM slot_sessions WHERE id = $1', [sessionId]);
      return rows[0]!.started_at.getTime();
    },
  } as ProtectionRoom;

  function managerOn(db: Db) {
    const settings = () => readSettings(room.t.ctx.config.settingsFile);
    room.protection = createProtection({ db, settings, now: () => room.nowMs });
    return new SessionManager({ ...room.t.ctx, db, protection: room.protection }, room.cabinets, { grant: async () => null }, TIMERS);
  }

  beforeAll(async () => {
    room.t = await createTestApp();
    const id = async (sql: string) => (await room.t.ctx.db.query<{ id: number }>(sql)).rows[0]!.id;
    room.player = await id("SELECT id FROM players WHERE username = 'alice'");
    room.machine = await id('SELECT id FROM machines ORDER BY id LIMIT 1');
  });
  afterAll(() => room.t.close());

  beforeEach(async () => {
    room.nowMs = Date.now();
    writeSettings(room.t.ctx, {});
    await room.t.ctx.db.query('DELETE FROM player_limits');
    await room.t.ctx.db.query('DELETE FROM player_protection_settings');
    room.cabinets = new FakeCabinets();
    room.sessions = managerOn(room.t.ctx.db);
    await room.sessions.start();
    room.cabinets.connect(room.machine);
    await room.sessions.drain();
  });

  afterEach(async () => {
    await room.sessions.leave(room.player).catch(() => {});
    await room.sessions.stop();
    const audit = await auditLedger(room.t.ctx.db);
    expect(audit.ok, JSON.stringify(audit)).toBe(true);
  });

  return room;
}
