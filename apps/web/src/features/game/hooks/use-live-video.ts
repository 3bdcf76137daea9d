import type { StreamGrant } from '@reel/protocol/client';
import { useEffect, useState, type RefObject } from 'react';
import {
  VideoConnection,
  VideoStatus,
  intervalLossPercent,
  isDegraded,
  isFrozen,
  type VideoGrant,
} from '@/lib/video';
import type { GameChannel } from '../api/game-channel';
import { videoGrant } from '../api/video-grant';

const STATS_INTERVAL_MS = 1000;
/** How often the frozen-picture check runs (the rule itself: FROZEN_AFTER_MS). */
const FREEZE_CHECK_MS = 200;
/** A grant this close to its expiry is not worth a WHEP request that would be refused. */
const GRANT_MARGIN_MS = 2000;

export interface LiveVideo {
  status: VideoStatus;
  /** Estimated picture delay: jitter buffer plus half the round trip, ms (null until measured). */
  latencyMs: number | null;
  framesPerSecond: number;
  /** Ms from offer to the first decoded frame of the current connection. */
  firstFrameMs: number | null;
  /** Round trip and video jitter as the browser measures them (getStats), ms. */
  rttMs: number | null;
  jitterMs: number | null;
  /** Video packets lost in the last stats interval, percent. */
  lossPercent: number | null;
  /** No new frame for more than FROZEN_AFTER_MS while connected: play waits. */
  frozen: boolean;
  /** Frozen, or loss / jitter / round trip beyond what plays well (link-health.ts). */
  degraded: boolean;
}

const INITIAL: LiveVideo = {
  status: VideoStatus.Idle,
  latencyMs: null,
  framesPerSecond: 0,
  firstFrameMs: null,
  rttMs: null,
  jitterMs: null,
  lossPercent: null,
  frozen: false,
  degraded: false,
};

function usable(grant: StreamGrant | null): grant is StreamGrant {
  if (!grant) return false;
  const expiresAtMs = Date.parse(grant.expiresAt);
  return Number.isNaN(expiresAtMs) || expiresAtMs - Date.now() > GRANT_MARGIN_MS;
}

/**
 * Plays the machine's live video into `videoRef`. Starts with the game screen, before the join:
 * the peer connection and its offer are made while the game channel joins, and the first grant
 * (it comes with `joined`) goes straight from the channel to the connection, which sends the offer
 * at once. Every reconnect of the video asks the game channel for a fresh grant (grants are
 * short-lived). `enabled` false (the machine's video cannot start) means no connection at all.
 */
export function useLiveVideo(
  videoRef: RefObject<HTMLVideoElement | null>,
  channel: GameChannel | null,
  enabled: boolean,
): LiveVideo {
  const [state, setState] = useState<LiveVideo>(INITIAL);

  useEffect(() => {
    const video = videoRef.current;
    if (!enabled || !channel || !video) return;
    // A grant from a rejoin, to use once (then a fresh one is asked for).
    let nextGrant: StreamGrant | null = null;
    // While the connection waits for a grant, the channel's next one goes to it directly.
    let waitingForGrant = false;
    // The grant reaches the connection before React renders the machine view; a machine whose
    // video cannot start gets no offer (the screen then turns `enabled` off and closes this).
    let videoUnavailable = false;
    const provide = async (): Promise<VideoGrant> => {
      const cached = nextGrant;
      nextGrant = null;
      let grant: StreamGrant;
      if (usable(cached)) grant = cached;
      else {
        waitingForGrant = true;
        try {
          grant = await channel.requestStream();
        } finally {
          waitingForGrant = false;
        }
      }
      if (videoUnavailable) return new Promise<never>(() => undefined);
      return videoGrant(grant);
    };
    const connection = new VideoConnection({ grant: provide, video });
    const offs = [
      connection.on('status', (status) =>
        setState((previous) => ({
          ...previous,
          status,
          ...(status === VideoStatus.Connected ? {} : { latencyMs: null }),
        })),
      ),
      connection.on('firstFrame', (firstFrameMs) => setState((previous) => ({ ...previous, firstFrameMs }))),
    ];
    void connection.connect().catch(() => undefined);
    // The last presented frame, from the video element itself: a frozen picture is one that stops
    // changing, whatever the connection state says.
    let lastFrameAtMs: number | null = null;
    let frameCallback = 0;
    const onVideoFrame = () => {
      lastFrameAtMs = performance.now();
      frameCallback = video.requestVideoFrameCallback(onVideoFrame);
    };
    frameCallback = video.requestVideoFrameCallback(onVideoFrame);
    const freezeTimer = setInterval(() => {
      const frozen =
        connection.status === VideoStatus.Connected && isFrozen(lastFrameAtMs, performance.now());
      setState((s) => (s.frozen === frozen ? s : { ...s, frozen, degraded: isDegraded(s, frozen) }));
    }, FREEZE_CHECK_MS);
    let packets = { received: 0, lost: 0 };
    // The jitter buffer's lifetime average still carries the join's burst; the delay of the last
    // interval is what the player sees now.
    let previous = { delaySeconds: 0, emitted: 0 };
    // A rejoin of the game (another server took the sessions over, or the server restarted) comes
    // with a fresh grant; when the picture stands still by then, the old media path is gone: go now.
    offs.push(
      channel.on('machine', (machine) => (videoUnavailable = machine.videoError !== undefined)),
      channel.on('joined', (data) => {
        videoUnavailable = data.machine.videoError !== undefined;
        // A connection waiting for its grant gets this one from the channel and goes on with it.
        if (waitingForGrant) return;
        if (data.stream) nextGrant = data.stream;
        const stalled =
          connection.status !== VideoStatus.Connected || isFrozen(lastFrameAtMs, performance.now());
        if (stalled) connection.reconnectNow();
      }),
    );
    const timer = setInterval(() => {
      const pc = connection.pc;
      if (connection.status !== VideoStatus.Connected || !pc) return;
      void pc
        .getStats()
        .then((report) => {
          let delaySeconds = 0;
          let emitted = 0;
          let rttMs: number | null = null;
          let framesPerSecond = 0;
          let jitterMs: number | null = null;
          let counts = packets;
          report.forEach((entry: Record<string, unknown>) => {
            if (entry.type === 'inbound-rtp' && entry.kind === 'video') {
              delaySeconds = Number(entry.jitterBufferDelay ?? 0);
              emitted = Number(entry.jitterBufferEmittedCount ?? 0);
              framesPerSecond = Number(entry.framesPerSecond ?? 0);
              if (typeof entry.jitter === 'number') jitterMs = entry.jitter * 1000;
              counts = { received: Number(entry.packetsReceived ?? 0), lost: Number(entry.packetsLost ?? 0) };
            }
            if (
              entry.type === 'candidate-pair' &&
              entry.nominated &&
              typeof entry.currentRoundTripTime === 'number'
            )
              rttMs = entry.currentRoundTripTime * 1000;
          });
          const frames = emitted - previous.emitted;
          const bufferMs = frames > 0 ? ((delaySeconds - previous.delaySeconds) / frames) * 1000 : null;
          previous = { delaySeconds, emitted };
          const lossPercent = intervalLossPercent(packets, counts);
          packets = counts;
          setState((state) => {
            const link = { rttMs, jitterMs, lossPercent };
            // A frozen picture decodes nothing: keep the last latency, the freeze says the rest.
            const latencyMs = bufferMs === null ? state.latencyMs : Math.round(bufferMs + (rttMs ?? 0) / 2);
            return {
              ...state,
              ...link,
              latencyMs,
              framesPerSecond,
              degraded: isDegraded(link, state.frozen),
            };
          });
        })
        .catch(() => undefined);
    }, STATS_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      clearInterval(freezeTimer);
      video.cancelVideoFrameCallback(frameCallback);
      for (const off of offs) off();
      connection.close();
    };
  }, [enabled, channel, videoRef]);

  return state;
}
