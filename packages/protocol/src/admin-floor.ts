/**
 * The operator console's live floor (issue 27): every machine with its session and cabinet health,
 * a REST snapshot to start from and the staff channel (`/ws/admin`) pushing each change; the
 * operator's actions on a machine, each with a reason. Paths are relative to the API base, like
 * `AdminPath`; every route declares STAFF.
 */
import { Type, type Static } from 'typebox';
import { ReasonField } from './admin-fields.js';
import type { StaffChatPush } from './admin-support.js';
import { IsoDate, Nullable } from './rest-fields.js';

export const AdminFloorPath = {
  floor: '/admin/floor',
  kick: '/admin/floor/:machineId/kick',
  cashOut: '/admin/floor/:machineId/cash-out',
  service: '/admin/floor/:machineId/service',
  emergencyStop: '/admin/floor/:machineId/emergency-stop',
  /** POST: a staff video grant (the game channel's `StreamGrant`: WHEP URL, grant, ICE servers); the player is not affected. */
  video: '/admin/floor/:machineId/video',
} as const;

/** The staff channel: `?token=` an operator token; pushes `floor` (a snapshot), `machine` (one machine) and `chat` (a player wrote). */
export const ADMIN_WS_PATH = '/ws/admin';

export const FloorMachineParams = Type.Object({ machineId: Type.Integer({ minimum: 1 }) });
export type FloorMachineParams = Static<typeof FloorMachineParams>;

const Stop = Type.Object({ reason: Type.String(), at: IsoDate('Stopped at'), by: Type.String() });

export const FloorMachine = Type.Object(
  {
    machineId: Type.Integer(),
    name: Type.String(),
    brand: Type.String(),
    /** The cabinet's last state (idle, in_game, malfunction, offline...). */
    cabinetState: Type.String(),
    /** Why staff took it out of service; null while in service. */
    outOfService: Nullable(Type.String()),
    /** The emergency stop in force; null when none. */
    emergencyStop: Nullable(Stop),
    session: Nullable(
      Type.Object({
        id: Type.String(),
        playerId: Type.Integer(),
        username: Type.String(),
        status: Type.String(),
        startedAt: IsoDate('Session started'),
        /** The player's result in the session: wins minus bets, in cents. */
        netCents: Type.Integer(),
      }),
    ),
    /** The cabinet's credit meter, in cents; null while it is not connected. */
    creditsCents: Nullable(Type.Integer()),
    /** Hand pays waiting for staff on this machine. */
    handPaysWaiting: Type.Integer(),
    health: Type.Object({
      connected: Type.Boolean(),
      /** The machine's video can run (no encoder failure reported). */
      encoderRunning: Type.Boolean(),
      videoError: Nullable(Type.String()),
      /** Since the media process last received a video packet from it; null when unknown. */
      lastFrameAgeMs: Nullable(Type.Number()),
      /** Malfunctions recorded on this machine (docs/money.md "The records decide"). */
      malfunctions: Type.Integer(),
    }),
  },
  { $id: 'FloorMachine' },
);
export type FloorMachine = Static<typeof FloorMachine>;

export const FloorSnapshot = Type.Object({ machines: Type.Array(FloorMachine), at: IsoDate('Taken at') }, { $id: 'FloorSnapshot' });
export type FloorSnapshot = Static<typeof FloorSnapshot>;

/** The staff channel's messages (server to console); `chat`: a line was written in a support conversation. */
export type AdminChannelMessage =
  | { event: 'floor'; data: FloorSnapshot }
  | { event: 'machine'; data: FloorMachine }
  | { event: 'chat'; data: StaffChatPush };

export const FloorActionRequest = Type.Object(ReasonField, { additionalProperties: false });
export type FloorActionRequest = Static<typeof FloorActionRequest>;
export const ServiceRequest = Type.Object({ inService: Type.Boolean(), ...ReasonField }, { additionalProperties: false });
export type ServiceRequest = Static<typeof ServiceRequest>;
export const EmergencyStopRequest = Type.Object({ stopped: Type.Boolean(), ...ReasonField }, { additionalProperties: false });
export type EmergencyStopRequest = Static<typeof EmergencyStopRequest>;

/** An action done: the player it concerned (kick, cash out); for a stop, whether the cabinet got it now. */
export const FloorActionResult = Type.Object({
  ok: Type.Boolean(),
  playerId: Type.Optional(Nullable(Type.Integer())),
  delivered: Type.Optional(Type.Boolean()),
});
export type FloorActionResult = Static<typeof FloorActionResult>;
