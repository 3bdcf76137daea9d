/**
 * The floor bench's floor: M machines of one brand and M players with money in their wallets, written
 * as an operator's setup would (the catalogue and the cashier's deposit), never through play. The
 * machines' agent keys go to `machine-keys.json` for the headless cabinets.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ActionCode } from '@reel/protocol';
import { withTransaction, type Db } from '../../../apps/server/src/db/pool.js';
import { createPlayer } from '../../../apps/server/src/modules/player/players.js';
import { createBrand, createMachine } from '../../../apps/server/src/modules/machines/catalog.js';
import { moveInTransaction, OperationKind } from '../../../apps/server/src/modules/ledger/ledger.js';

export interface FloorSeat {
  username: string;
  password: string;
  machineId: number;
}

export const FLOOR_DEPOSIT_CENTS = 100_000;

/** Seats (player + machine) for `count` players; the keys of every machine in `keysFile`. */
export async function seedFloor(db: Db, count: number, keysFile: string): Promise<FloorSeat[]> {
  const seats: FloorSeat[] = [];
  const keys: Record<string, string> = {};
  await withTransaction(db, async (tx) => {
    const brandId = await createBrand(tx, { name: 'Floor Bench', jackpotSeedsCents: [250_000, 50_000, 10_000] });
    for (let i = 1; i <= count; i++) {
      const username = `floor${i}`;
      const password = `floor${i}-bench`;
      const playerId = await createPlayer(tx, { username, email: `${username}@bench.reel.live`, password });
      await moveInTransaction(tx, {
        kind: OperationKind.Deposit,
        actionCode: ActionCode.Deposit,
        playerId,
        from: { kind: 'cashier' },
        to: { kind: 'wallet', playerId, part: 'cash' },
        amountCents: FLOOR_DEPOSIT_CENTS,
        tag: 'floor bench deposit',
      });
      const { id, key } = await createMachine(tx, { brandId, name: `Floor ${i}` });
      keys[id] = key;
      seats.push({ username, password, machineId: id });
    }
  });
  fs.mkdirSync(path.dirname(keysFile), { recursive: true });
  fs.writeFileSync(keysFile, JSON.stringify(keys), { mode: 0o600 });
  return seats;
}
