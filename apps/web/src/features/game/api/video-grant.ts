import type { StreamGrant } from '@reel/protocol/client';
import { backendUrl } from '@/lib/api-client';
import type { VideoGrant } from '@/lib/video';

/**
 * A game channel grant as the video connection takes it. The server names its WHEP resource by a
 * root path (`/api/media/whep/1`): that path is the backend's, so it is resolved against API_URL,
 * not against the page, or a front end served from another host would ask its own host for video.
 */
export function videoGrant(grant: StreamGrant): VideoGrant {
  return { ...grant, whepUrl: backendUrl(grant.whepUrl), iceServers: grant.iceServers as RTCIceServer[] };
}
