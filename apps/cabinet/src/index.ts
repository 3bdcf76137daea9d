export { SlotMachine, DEFAULT_TIMING, type MachineTiming, type ActiveSpin } from './game/machine.js';
export { MachineStream } from './media/machine-stream.js';
export { DEFAULT_BANDS, DEFAULT_BAND_ID } from './media/bands.js';
export { resolveFfmpeg } from './media/ffmpeg-path.js';
export { AgentClient, type AgentMachine } from './agent/agent-client.js';
export { loadCabinetConfig, type CabinetConfig } from './config.js';
export { computeDesignMath } from './game/math.js';
