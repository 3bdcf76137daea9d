export { MediaService, type MediaServiceOptions } from './media-service.js';
export { MediaSupervisor, type MediaSupervisorOptions } from './media-supervisor.js';
export { MediaClient, MediaControlError } from './media-client.js';
export { mediaPlugin, type MediaPluginOptions, type ViewerGateway } from './plugin.js';
