/**
 * What the lobby shows: brands with their jackpots and machines with a status derived from the
 * machine's switch, the cabinet's own state, open sessions and reservations (the spec's machine statuses; the map: docs/architecture.md).
 */
import {
  bandsAtFps,
  DEFAULT_QUALITY_BANDS,
  isUnavailableCabinetState,
  MachineStatus,
  type Brand,
  type BrandWithMachines,
  type Machine,
  type QualityBand,
} from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';

/** Until a cabinet reports its own bands, the lobby lists the simulated cabinet's. */
export const DEFAULT_BANDS: QualityBand[] = DEFAULT_QUALITY_BANDS.map((band) => ({ ...band }));

/** Recent payouts that make a machine "hot": the sum of wins in this window passes HOT_FLAG_LIMIT. */
const HOT_WINDOW_MINUTES = 60;

export function deriveStatus(row: {
  enabled: boolean;
  cabinet_state: string;
  session_status: string | null;
  reservation: boolean;
  /** The first in the machine's queue has a ready check: the seat is theirs meanwhile. */
  seat_held?: boolean;
}): MachineStatus {
  if (!row.enabled || isUnavailableCabinetState(row.cabinet_state)) return MachineStatus.NotAvailable;
  if (row.session_status === 'disconnected') return MachineStatus.Waiting;
  if (row.session_status) return MachineStatus.Playing;
  if (row.reservation || row.seat_held) return MachineStatus.Reserved;
  return MachineStatus.Available;
}

interface MachineRow {
  id: number;
  name: string;
  brand_id: number;
  brand: string;
  image: string | null;
  video_type: 'screen' | 'camera';
  reservation: boolean;
  enabled: boolean;
  cabinet_state: string;
  session_status: string | null;
  recent_payout: number;
  queue_length: number;
  seat_held: boolean;
}

/** `fps`: the FPS setting; the listed bands carry it (bandsAtFps). */
export async function listMachines(
  db: Queryable,
  options: { hotLimitCents: number; brandId?: number; machineId?: number; fps?: number },
): Promise<Machine[]> {
  const { rows } = await db.query<MachineRow>(
    `SELECT m.id, m.name, m.brand_id, b.name AS brand, m.image, m.video_type, m.reservation,
            -- Out of service or emergency-stopped by staff (the console's floor): not available.
            -- A hand pay waiting for staff locks it too.
            (m.enabled AND m.out_of_service IS NULL AND m.emergency_stop IS NULL
             AND NOT EXISTS (SELECT 1 FROM hand_pays h WHERE h.machine_id = m.id AND h.status = 'waiting')) AS enabled, m.cabinet_state,
            s.status AS session_status,
            -- The machine's queue (modules/queue): its length, and whether a ready check holds the seat.
            (SELECT count(*) FROM machine_queue q WHERE q.machine_id = m.id)::int AS queue_length,
            EXISTS (SELECT 1 FROM machine_queue q WHERE q.machine_id = m.id AND q.ready_until IS NOT NULL) AS seat_held,
            coalesce((SELECT sum(win_cents) FROM game_cycles g
                       WHERE g.machine_id = m.id AND g.created_at > now() - make_interval(mins => $3)), 0)::bigint AS recent_payout
       FROM machines m
       JOIN brands b ON b.id = m.brand_id
       LEFT JOIN slot_sessions s ON s.machine_id = m.id AND s.status <> 'closed'
      WHERE ($1::int IS NULL OR m.brand_id = $1) AND ($2::int IS NULL OR m.id = $2)
      ORDER BY m.brand_id, m.id`,
    [options.brandId ?? null, options.machineId ?? null, HOT_WINDOW_MINUTES],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: deriveStatus(r),
    brand: r.brand,
    brandId: r.brand_id,
    image: r.image,
    reservation: r.reservation,
    hot: r.recent_payout > options.hotLimitCents,
    queue: r.queue_length,
    videoType: r.video_type,
    bands: bandsAtFps(DEFAULT_BANDS, options.fps),
  }));
}

export async function listBrands(db: Queryable, brandId?: number): Promise<Brand[]> {
  const { rows } = await db.query<{
    id: number;
    name: string;
    image: string | null;
    jackpot: string | null;
    machine_count: number;
  }>(
    `SELECT b.id, b.name, b.image,
            (SELECT string_agg(j.amount_cents::text, ',' ORDER BY j.level) FROM jackpots j WHERE j.brand_id = b.id) AS jackpot,
            (SELECT count(*) FROM machines m WHERE m.brand_id = b.id AND m.enabled)::int AS machine_count
       FROM brands b WHERE ($1::int IS NULL OR b.id = $1) ORDER BY b.id`,
    [brandId ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    image: r.image,
    jackpot: r.jackpot ?? '',
    machineCount: r.machine_count,
  }));
}

export async function lobby(
  db: Queryable,
  hotLimitCents: number,
  brandId?: number,
  fps?: number,
): Promise<BrandWithMachines[]> {
  const [brands, machines] = await Promise.all([
    listBrands(db, brandId),
    listMachines(db, { hotLimitCents, brandId, ...(fps === undefined ? {} : { fps }) }),
  ]);
  return brands.map((brand) => ({ brand, machines: machines.filter((m) => m.brandId === brand.id) }));
}
