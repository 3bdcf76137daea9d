export { VideoConnection, VideoStatus, type VideoGrant } from './video-connection.js';
export { readVideoStats } from './stats.js';
export * from './link-health.js';
