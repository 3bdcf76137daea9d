/** Reading what matters for a live machine picture out of RTCPeerConnection.getStats(). */
export interface VideoStats {
  framesDecoded: number;
  framesDropped: number;
  framesPerSecond: number;
  frameWidth: number;
  frameHeight: number;
  /** Average time frames waited in the jitter buffer, ms. */
  jitterBufferDelayMs: number;
  /** Round-trip time of the selected candidate pair, ms (null until measured). */
  rttMs: number | null;
  videoPacketsReceived: number;
  videoPacketsLost: number;
  audioPacketsReceived: number;
  bytesReceived: number;
}

export async function readVideoStats(pc: RTCPeerConnection): Promise<VideoStats> {
  const report = await pc.getStats();
  const out: VideoStats = {
    framesDecoded: 0,
    framesDropped: 0,
    framesPerSecond: 0,
    frameWidth: 0,
    frameHeight: 0,
    jitterBufferDelayMs: 0,
    rttMs: null,
    videoPacketsReceived: 0,
    videoPacketsLost: 0,
    audioPacketsReceived: 0,
    bytesReceived: 0,
  };
  report.forEach((s: Record<string, unknown>) => {
    if (s.type === 'inbound-rtp' && s.kind === 'video') {
      out.framesDecoded = Number(s.framesDecoded ?? 0);
      out.framesDropped = Number(s.framesDropped ?? 0);
      out.framesPerSecond = Number(s.framesPerSecond ?? 0);
      out.frameWidth = Number(s.frameWidth ?? 0);
      out.frameHeight = Number(s.frameHeight ?? 0);
      const emitted = Number(s.jitterBufferEmittedCount ?? 0);
      out.jitterBufferDelayMs = emitted > 0 ? (Number(s.jitterBufferDelay ?? 0) / emitted) * 1000 : 0;
      out.videoPacketsReceived = Number(s.packetsReceived ?? 0);
      out.videoPacketsLost = Number(s.packetsLost ?? 0);
      out.bytesReceived += Number(s.bytesReceived ?? 0);
    }
    if (s.type === 'inbound-rtp' && s.kind === 'audio') {
      out.audioPacketsReceived = Number(s.packetsReceived ?? 0);
      out.bytesReceived += Number(s.bytesReceived ?? 0);
    }
    if (s.type === 'candidate-pair' && s.nominated && typeof s.currentRoundTripTime === 'number')
      out.rttMs = s.currentRoundTripTime * 1000;
  });
  return out;
}
