/**
 * The agent channel's messages as schemas, one per event and direction (agent.ts describes them as
 * TypeScript types). Each side checks what it receives against these (agent-reader.ts); the fuzzer
 * drives the channel from them; the type checks below fail when a schema and its type drift apart,
 * so neither can change alone.
 */
import { Type, type Static } from 'typebox';
import {
  AgentCommand,
  AgentMachineState,
  CommandResult,
  GameCycle,
  MachineMeters,
  MachineProfile,
  type AgentClientEvents,
  type AgentServerEvents,
} from './agent.js';

const MachineId = Type.Integer({ minimum: 1 });
const VideoTypeSchema = Type.Union([Type.Literal('screen'), Type.Literal('camera')]);

export const AgentClientSchemas = {
  hello: Type.Object({ protocol: Type.Integer(), agentId: Type.String(), software: Type.String() }),
  auth: Type.Object({
    machineId: MachineId,
    key: Type.String(),
    videoType: VideoTypeSchema,
    bands: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        width: Type.Integer(),
        height: Type.Integer(),
        bitrateKbps: Type.Integer(),
        Order: Type.Integer(),
      }),
    ),
    betLevels: Type.Array(Type.Integer()),
    lines: Type.Integer(),
    headless: Type.Optional(Type.Boolean()),
  }),
  state: Type.Object({
    machineId: MachineId,
    state: AgentMachineState,
    previous: Type.Union([AgentMachineState, Type.Null()]),
    atMs: Type.Number(),
    reason: Type.Optional(Type.String()),
    videoError: Type.Optional(Type.String()),
    emergencyStop: Type.Optional(Type.String({ maxLength: 500 })),
  }),
  cycle: Type.Object({ machineId: MachineId, cycle: GameCycle }),
  meters: Type.Object({ machineId: MachineId, meters: MachineMeters }),
  snapshot: Type.Object({
    machineId: MachineId,
    view: VideoTypeSchema,
    mime: Type.Literal('image/jpeg'),
    dataBase64: Type.String(),
  }),
  command_result: Type.Object({ machineId: MachineId, result: CommandResult }),
};

/** Server → cabinet. */
export const AgentServerSchemas = {
  welcome: Type.Object({ protocol: Type.Integer(), serverTimeMs: Type.Number() }),
  auth_result: Type.Object({
    machineId: MachineId,
    ok: Type.Boolean(),
    reason: Type.Optional(
      Type.Union([Type.Literal('unknown_machine'), Type.Literal('bad_key'), Type.Literal('duplicate'), Type.Literal('protocol')]),
    ),
    profile: Type.Optional(MachineProfile),
  }),
  command: Type.Object({ machineId: MachineId, command: AgentCommand }),
  cycle_ack: Type.Object({ machineId: MachineId, gameId: Type.String() }),
  emergency_stop: Type.Object({ machineId: MachineId, stopped: Type.Boolean(), reason: Type.String({ maxLength: 500 }) }),
  error: Type.Object({ reason: Type.String() }),
};

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while every schema describes exactly its event's type in agent.ts. */
const serverSchemasMatchTypes: { [E in keyof AgentServerEvents]: Same<Static<(typeof AgentServerSchemas)[E]>, AgentServerEvents[E]> } = {
  welcome: true,
  auth_result: true,
  command: true,
  cycle_ack: true,
  emergency_stop: true,
  error: true,
};
void serverSchemasMatchTypes;
const schemasMatchTypes: { [E in keyof AgentClientEvents]: Same<Static<(typeof AgentClientSchemas)[E]>, AgentClientEvents[E]> } = {
  hello: true,
  auth: true,
  state: true,
  cycle: true,
  meters: true,
  snapshot: true,
  command_result: true,
};
void schemasMatchTypes;
