/**
 * The agent channel's cabinet → server messages as schemas, one per event (agent.ts describes them
 * as TypeScript types). The fuzzer drives the channel from these; the type check below fails when
 * a schema and its type drift apart, so neither can change alone.
 */
import { Type, type Static } from 'typebox';
import { AgentMachineState, CommandResult, GameCycle, MachineMeters, type AgentClientEvents } from './agent.js';

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
  }),
  state: Type.Object({
    machineId: MachineId,
    state: AgentMachineState,
    previous: Type.Union([AgentMachineState, Type.Null()]),
    atMs: Type.Number(),
    reason: Type.Optional(Type.String()),
    videoError: Type.Optional(Type.String()),
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

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while every schema describes exactly its event's type in agent.ts. */
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
