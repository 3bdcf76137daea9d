export { SlotMachine } from './game/machine.js';
export { DEFAULT_TIMING, type MachineTiming, type ActiveSpin } from './game/machine-types.js';
export { MachineStream, DEFAULT_RESTART_POLICY, type RestartPolicy } from './media/machine-stream.js';
export { DEFAULT_BANDS, DEFAULT_BAND_ID } from './media/bands.js';
export { resolveFfmpeg, bundledFfmpeg, SYSTEM_FFMPEG } from './media/ffmpeg-path.js';
export {
  probeFfmpeg,
  describeProbe,
  type FfmpegProbe,
  type FfmpegCapabilities,
} from './media/ffmpeg-probe.js';
export { AgentClient, type AgentMachine } from './agent/agent-client.js';
export { loadCabinetConfig, type CabinetConfig } from './config.js';
