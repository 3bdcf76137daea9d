import type { StreamGrant } from '@reel/protocol/client';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { VideoConnection, VideoStatus, type VideoGrant } from '@/lib/video';
import type { GameChannel } from '../api/game-channel';

export const STATS_INTERVAL_MS = 1000;
/** A grant this close to its expiry is not worth a WHEP request that would be refused. */
const GRANT_MARGIN_MS = 2000;

export interface LiveVideo {
  status: VideoStatus;
  /** Estimated picture delay: jitter buffer plus half the round trip, ms (null until measured). */
  latencyMs: number | null;
  framesPerSecond: number;
  /** Ms from offer to the first decoded frame of the current connection. */
  firstFrameMs: number | null;
}

function usable(grant: StreamGrant | null): grant is StreamGrant {
  if (!grant) return false;
  const expiresAtMs = Date.parse(grant.expiresAt);
  return Number.isNaN(expiresAtMs) || expiresAtMs - Date.now() > GRANT_MARGIN_MS;
}

/**
 * Plays the machine's live video into `videoRef`. The first grant comes with `joined`; every
 * reconnect of the video asks the game channel for a fresh one (grants are short-lived).
 */
export function useLiveVideo(videoRef: RefObject<HTMLVideoElement | null>, channel: GameChannel | null, firstGrant: StreamGrant | null): LiveVideo {
  const [state, setState] = useState<LiveVideo>({ status: VideoStatus.Idle, latencyMs: null, framesPerSecond: 0, firstFrameMs: null });
  const grantRef = useRef(firstGrant);
  grantRef.current = firstGrant;
  const ready = Boolean(channel && firstGrant);

  useEffect(() => {
    const video = videoRef.current;
    if (!ready || !channel || !video) return;
    const provide = async (): Promise<VideoGrant> => {
      const cached = grantRef.current;
      grantRef.current = null;
      const grant = usable(cached) ? cached : await channel.requestStream();
      return { ...grant, iceServers: grant.iceServers as RTCIceServer[] };
    };
    const connection = new VideoConnection({ grant: provide, video });
    const offs = [
      connection.on('status', (status) => setState((previous) => ({ ...previous, status, ...(status === VideoStatus.Connected ? {} : { latencyMs: null }) }))),
      connection.on('firstFrame', (firstFrameMs) => setState((previous) => ({ ...previous, firstFrameMs }))),
    ];
    void connection.connect().catch(() => undefined);
    // The jitter buffer's lifetime average still carries the join's burst; the delay of the last
    // interval is what the player sees now.
    let previous = { delaySeconds: 0, emitted: 0 };
    const timer = setInterval(() => {
      const pc = connection.pc;
      if (connection.status !== VideoStatus.Connected || !pc) return;
      void pc
        .getStats()
        .then((report) => {
          let delaySeconds = 0;
          let emitted = 0;
          let rttMs = 0;
          let framesPerSecond = 0;
          report.forEach((entry: Record<string, unknown>) => {
            if (entry.type === 'inbound-rtp' && entry.kind === 'video') {
              delaySeconds = Number(entry.jitterBufferDelay ?? 0);
              emitted = Number(entry.jitterBufferEmittedCount ?? 0);
              framesPerSecond = Number(entry.framesPerSecond ?? 0);
            }
            if (entry.type === 'candidate-pair' && entry.nominated && typeof entry.currentRoundTripTime === 'number') rttMs = entry.currentRoundTripTime * 1000;
          });
          const frames = emitted - previous.emitted;
          const bufferMs = frames > 0 ? ((delaySeconds - previous.delaySeconds) / frames) * 1000 : null;
          previous = { delaySeconds, emitted };
          if (bufferMs === null) return;
          setState((state) => ({ ...state, latencyMs: Math.round(bufferMs + rttMs / 2), framesPerSecond }));
        })
        .catch(() => undefined);
    }, STATS_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      for (const off of offs) off();
      connection.close();
    };
  }, [ready, channel, videoRef]);

  return state;
}
