/**
 * SDP adjustments between the browser and Janus (the scale path's adapter, janus.ts).
 *
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

/**
 * Janus 1.4.1 answering an offer that lists RTX (Chrome's does) agrees to RTX but gives it no SSRC
 * (a medium created before RFC 4588 is negotiated keeps `ssrc_rtx` 0: no `ssrc-group:FID` in the
 * answer) and then sends its retransmissions as RTX the browser cannot place: at 2 % loss Chrome
 * sent 1379 NACKs and received 0 retransmissions. Without RTX in the offer, Janus resends the
 * packets themselves on the video SSRC, which Chrome takes (docs/video.md).
 */
export function withoutRtx(offer: string): string {
  // Per m-section: the session part and each medium, each starting at its `m=` line.
  const sections = offer.split(/\r\n(?=m=)/);
  return sections
    .map((section) => {
      if (!section.startsWith('m=video ')) return section;
      const rtx = new Set([...section.matchAll(/^a=rtpmap:(\d+) rtx\/\d+/gm)].map((m) => m[1]!));
      const [mLine, ...lines] = section.split('\r\n');
      const kept = lines.filter((line) => {
        const pt = /^a=(?:rtpmap|fmtp|rtcp-fb):(\d+) /.exec(line)?.[1];
        return !(pt && rtx.has(pt)) && !line.startsWith('a=ssrc-group:FID');
      });
      const formats = mLine!.split(' ').filter((field, i) => i < 3 || !rtx.has(field));
      return [formats.join(' '), ...kept].join('\r\n');
    })
    .join('\r\n');
}
