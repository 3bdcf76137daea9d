/**
 * The live floor as staff see it: every machine with its open session (player, time, result),
 * the cabinet's credits and health (connected, video, last frame age, malfunctions). Read from the
 * records, the agent hub's live state and the media process' counters; nothing here writes.
 */
import { CabinetState, type FloorMachine } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import type { CabinetPort } from '../sessions/types.js';

/** The media process' per-machine counters, when video runs (null in API tests). */
export type FrameAges = () => Promise<Map<number, number | null>>;

interface FloorRow {
  id: number;
  name: string;
  brand: string;
  cabinet_state: string;
  out_of_service: string | null;
  emergency_stop: { reason: string; at: string; by: string } | null;
  session_id: string | null;
  player_id: number | null;
  username: string | null;
  session_status: string | null;
  started_at: Date | null;
  net_cents: string | null;
  malfunctions: number;
  hand_pays_waiting: number;
}

export async function readFloor(
  db: Queryable,
  cabinets: Pick<CabinetPort, 'get' | 'isConnected'>,
  frameAges: FrameAges | null,
  machineId?: number,
): Promise<FloorMachine[]> {
  const [{ rows }, ages] = await Promise.all([
    db.query<FloorRow>(
      `SELECT m.id, m.name, b.name AS brand, m.cabinet_state, m.out_of_service, m.emergency_stop,
              s.id AS session_id, s.player_id, p.username, s.status AS session_status, s.started_at,
              (s.win_cents - s.bet_cents) AS net_cents,
              (SELECT count(*) FROM malfunctions f WHERE f.machine_id = m.id)::int AS malfunctions,
              (SELECT count(*) FROM hand_pays h WHERE h.machine_id = m.id AND h.status = 'waiting')::int AS hand_pays_waiting
         FROM machines m
         JOIN brands b ON b.id = m.brand_id
         LEFT JOIN slot_sessions s ON s.machine_id = m.id AND s.status <> 'closed'
         LEFT JOIN players p ON p.id = s.player_id
        WHERE m.enabled AND ($1::int IS NULL OR m.id = $1)
        ORDER BY m.id`,
      [machineId ?? null],
    ),
    frameAges ? frameAges().catch(() => new Map<number, number | null>()) : Promise.resolve(new Map<number, number | null>()),
  ]);
  return rows.map((row) => {
    const cabinet = cabinets.get(row.id);
    const connected = cabinets.isConnected(row.id);
    return {
      machineId: row.id,
      name: row.name,
      brand: row.brand,
      cabinetState: connected ? (cabinet?.state ?? row.cabinet_state) : CabinetState.Offline,
      outOfService: row.out_of_service,
      emergencyStop: row.emergency_stop,
      session:
        row.session_id === null
          ? null
          : {
              id: row.session_id,
              playerId: row.player_id!,
              username: row.username!,
              status: row.session_status!,
              startedAt: row.started_at!.toISOString(),
              netCents: Number(row.net_cents ?? 0),
            },
      creditsCents: connected ? (cabinet?.meters?.creditsCents ?? null) : null,
      handPaysWaiting: row.hand_pays_waiting,
      health: {
        connected,
        encoderRunning: connected && !cabinet?.videoError,
        videoError: cabinet?.videoError ?? null,
        lastFrameAgeMs: ages.get(row.id) ?? null,
        malfunctions: row.malfunctions,
      },
    };
  });
}
