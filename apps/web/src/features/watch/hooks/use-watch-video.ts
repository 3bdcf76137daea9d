import type { StreamGrant } from '@reel/protocol/client';
import { useEffect, useState, type RefObject } from 'react';
import { backendUrl } from '@/lib/api-client';
import { VideoConnection, VideoStatus, type VideoGrant } from '@/lib/video';
import type { WatchChannel } from '../api/watch-channel';

const asVideoGrant = (grant: StreamGrant): VideoGrant => ({ ...grant, whepUrl: backendUrl(grant.whepUrl), iceServers: grant.iceServers as RTCIceServer[] });

/**
 * The machine's video for a spectator: the first grant from `watching`, a fresh one from the watch
 * socket on every reconnect. The same encoded stream the player gets; nothing to control.
 */
export function useWatchVideo(videoRef: RefObject<HTMLVideoElement | null>, channel: WatchChannel | null, firstGrant: StreamGrant | null): VideoStatus {
  const [status, setStatus] = useState<VideoStatus>(VideoStatus.Idle);
  useEffect(() => {
    const video = videoRef.current;
    if (!channel || !firstGrant || !video) return;
    let first: StreamGrant | null = firstGrant;
    const provide = async () => {
      const grant = first ?? (await channel.requestStream());
      first = null;
      return asVideoGrant(grant);
    };
    const connection = new VideoConnection({ grant: provide, video });
    const off = connection.on('status', setStatus);
    void connection.connect().catch(() => undefined);
    return () => {
      off();
      connection.close();
    };
  }, [channel, firstGrant, videoRef]);
  return status;
}
