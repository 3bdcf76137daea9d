/**
 * A spin sent again with the same command id (a client whose socket dropped while its game ran) is
 * answered by the cabinet as a duplicate, with the game it played. When that game is recorded, its
 * `cycle` went out at the recording, perhaps to a socket that was gone by then: after a failover
 * the new owner records it from the cabinet's outbox while the player is still rejoining, or finds
 * it stored by the owner that died and sends nothing. The player gets it again, from the cabinet's
 * answer and the records (whether it wrote a hand pay). A game not recorded yet goes out when it is.
 * The machine view the command pushes next carries the machine's credits now.
 */
import type { GameCycle } from '@reel/protocol';
import { cycleView, handPayCommandId } from './game-cycles.js';
import type { LiveSession } from './live-session.js';
import type { SessionKit } from './session-kit.js';

export async function replayRecordedCycle(kit: Pick<SessionKit, 'db' | 'floor'>, live: LiveSession, cycle: GameCycle) {
  const { rows } = await kit.db.query<{ hand_pay: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM machine_commands WHERE command_id = $4) AS hand_pay
       FROM game_cycles WHERE machine_id = $1 AND game_id = $2 AND started_ms = $3`,
    [live.machineId, cycle.gameId, Math.round(cycle.startedAtMs), handPayCommandId(live.machineId, cycle)],
  );
  if (rows[0]) kit.floor.send(live.playerId, 'cycle', cycleView(live, cycle, rows[0].hand_pay));
}
