export { MediaService } from './media-service.js';
export { mediaPlugin } from './plugin.js';
