/**
 * Demo data for a fresh database: three players, three brand groups with twelve machines,
 * support agents and quick-panel items. Runs once (skipped when any player exists).
 * The machines' agent keys are written to `${dataDir}/machine-keys.json` for the demo cabinets.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ActionCode } from '@reel/protocol';
import { withTransaction, type Db } from '../db/pool.js';
import { createPlayer } from '../modules/player/players.js';
import { createBrand, createMachine, rotateMachineKey } from '../modules/machines/catalog.js';
import { moveInTransaction, OperationKind } from '../modules/ledger/ledger.js';
import { createOperator } from '../modules/operators/operators.js';

export const DEMO_PLAYERS = [
  { username: 'demo', email: 'demo@reel.live', password: 'demo1234', name: 'Demo', lastname: 'Player', pin: '1234', depositCents: 100_000 },
  { username: 'alice', email: 'alice@reel.live', password: 'alice1234', name: 'Alice', lastname: 'Yılmaz', pin: '1111', depositCents: 50_000 },
  { username: 'bobby', email: 'bobby@reel.live', password: 'bobby1234', name: 'Bob', lastname: 'Demir', pin: '2222', depositCents: 25_000 },
] as const;

/** The console's demo operators (README's demo accounts). */
const DEMO_OPERATORS = [
  { username: 'admin', password: 'admin1234', role: 'admin' },
  { username: 'staff1', password: 'staff1234', role: 'staff' },
  { username: 'staff2', password: 'staff1234', role: 'staff' },
] as const;

const DEMO_BRANDS = [
  { name: 'Golden Reels', jackpots: [250_000, 50_000, 10_000], machines: ['Golden Reels 1', 'Golden Reels 2', 'Golden Reels 3', 'Golden Reels 4'] },
  { name: 'Lucky Sevens', jackpots: [500_000, 100_000, 20_000], machines: ['Lucky Sevens 1', 'Lucky Sevens 2', 'Lucky Sevens 3', 'Lucky Sevens 4'] },
  { name: 'Fruit Palace', jackpots: [100_000, 25_000, 5_000], machines: ['Fruit Palace 1', 'Fruit Palace 2', 'Fruit Palace 3', 'Fruit Palace 4'] },
] as const;

type MachineKeys = Record<string, string>;

function machineKeysFile(dataDir: string) {
  return path.join(dataDir, 'machine-keys.json');
}

export async function seedDemo(db: Db, dataDir: string): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM players');
  if (rows[0]!.n > 0) {
    await ensureMachineKeys(db, dataDir);
    await ensureDemoOperators(db);
    return false;
  }
  const keys: MachineKeys = {};
  await withTransaction(db, async (tx) => {
    for (const player of DEMO_PLAYERS) {
      const id = await createPlayer(tx, player);
      await moveInTransaction(tx, {
        kind: OperationKind.Deposit,
        actionCode: ActionCode.Deposit,
        playerId: id,
        from: { kind: 'cashier' },
        to: { kind: 'wallet', playerId: id, part: 'cash' },
        amountCents: player.depositCents,
        tag: 'welcome deposit',
      });
    }
    for (const brand of DEMO_BRANDS) {
      const brandId = await createBrand(tx, { name: brand.name, jackpotSeedsCents: [...brand.jackpots] });
      for (const [index, name] of brand.machines.entries()) {
        const { id, key } = await createMachine(tx, { brandId, name, reservation: index === 3 });
        keys[id] = key;
      }
    }
    await tx.query(
      `INSERT INTO quick_panel_items (player_id, kind, title, detail) VALUES
        (NULL, 'event', 'New machines', 'Four Fruit Palace cabinets joined the floor'),
        (NULL, 'note', 'Responsible play', 'Set yourself a limit before you start'),
        (NULL, 'note', 'Support', 'Support is open around the clock in the chat panel')`,
    );
  });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(machineKeysFile(dataDir), JSON.stringify(keys, null, 2), { mode: 0o600 });
  await ensureDemoOperators(db);
  return true;
}

/** A demo database (its `demo` player exists) without operators, e.g. one seeded before the console: add them. */
async function ensureDemoOperators(db: Db) {
  const { rows } = await db.query<{ seed: boolean }>(
    "SELECT NOT EXISTS (SELECT 1 FROM operators) AND EXISTS (SELECT 1 FROM players WHERE username = 'demo') AS seed",
  );
  if (!rows[0]!.seed) return;
  await withTransaction(db, async (tx) => {
    for (const operator of DEMO_OPERATORS) await createOperator(tx, operator);
  });
}

/** With an existing database but no keys file (e.g. a new data dir on an external PostgreSQL), issue new keys. */
async function ensureMachineKeys(db: Db, dataDir: string) {
  const file = machineKeysFile(dataDir);
  if (fs.existsSync(file)) return;
  const keys: MachineKeys = {};
  const { rows } = await db.query<{ id: number }>('SELECT id FROM machines WHERE enabled ORDER BY id');
  for (const { id } of rows) keys[id] = await rotateMachineKey(db, id);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
}
