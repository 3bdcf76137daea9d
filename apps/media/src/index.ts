export { Forwarder } from './werift/forwarder.js';
export { MediaError } from './media-error.js';
export { createControlServer, type MediaBackendApi } from './control-server.js';
export { signGrant, verifyGrant, DEFAULT_GRANT_TTL_MS } from '@reel/media-control';
export { GopCache } from './werift/gop-cache.js';
export { RtpContinuity, isVp8KeyframeStart } from './rtp.js';
export { LIVENESS_TIMEOUT_MS } from './werift/viewer.js';
