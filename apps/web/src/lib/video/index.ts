export {
  VideoConnection,
  VideoStatus,
  type VideoConnectionOptions,
  type VideoConnectionEvents,
  type VideoGrant,
} from './video-connection.js';
export { whepSignaller, SignalError, type Signaller, type SignalResult } from './whep.js';
export { readVideoStats, type VideoStats } from './stats.js';
export * from './link-health.js';
