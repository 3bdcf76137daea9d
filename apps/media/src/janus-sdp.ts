/**
 * Janus puts its audio and video in one media stream (`a=msid:janus janus0` / `janus1`). Chrome then
 * lip-syncs them: it holds each decoded video frame until the audio of its time plays, which undoes
 * the zero playout delay (PLAYOUT_DELAY_URI in @reel/protocol) by the audio's buffer, ~20–25 ms of
 * render-to-present on loopback. werift's answer names no stream, so nothing is synced there; the
 * Janus adapter removes the stream names from Janus' SDP to match. The page plays both tracks from
 * one MediaStream of its own (video-connection.ts), so nothing else reads them.
 */
const STREAM_NAME = /^a=(msid:|ssrc:\d+ (msid|mslabel|label):)/;

export function withoutStreamNames(sdp: string): string {
  return sdp
    .split('\r\n')
    .filter((line) => !STREAM_NAME.test(line))
    .join('\r\n');
}
