import { describe, expect, it } from 'vitest';
import { withoutRtx, withoutStreamNames } from './janus-sdp.js';

const answer = [
  'v=0',
  'a=msid-semantic: WMS *',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'a=msid:janus janus0',
  'a=ssrc:2107810722 cname:janus',
  'a=ssrc:2107810722 msid:janus janusv0',
  'a=ssrc:2107810722 mslabel:janus',
  'a=ssrc:2107810722 label:janusv0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=msid:janus janus1',
  'a=ssrc:1304830292 cname:janus',
  '',
].join('\r\n');

describe('withoutStreamNames', () => {
  it("drops the stream names Chrome would lip-sync by, and keeps every other line", () => {
    expect(withoutStreamNames(answer)).toBe(
      [
        'v=0',
        'a=msid-semantic: WMS *',
        'm=video 9 UDP/TLS/RTP/SAVPF 96',
        'a=ssrc:2107810722 cname:janus',
        'm=audio 9 UDP/TLS/RTP/SAVPF 111',
        'a=ssrc:1304830292 cname:janus',
        '',
      ].join('\r\n'),
    );
  });
});

const offer = [
  'v=0',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97 98 99',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 nack',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  'a=rtpmap:98 VP9/90000',
  'a=fmtp:98 profile-id=0',
  'a=rtpmap:99 rtx/90000',
  'a=fmtp:99 apt=98',
  'a=ssrc-group:FID 1 2',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63',
  'a=rtpmap:111 opus/48000/2',
  'a=rtpmap:63 red/48000/2',
  '',
].join('\r\n');

describe('withoutRtx', () => {
  it('takes RTX out of the video section: its payload types, their lines and the FID group', () => {
    expect(withoutRtx(offer)).toBe(
      [
        'v=0',
        'm=video 9 UDP/TLS/RTP/SAVPF 96 98',
        'a=rtpmap:96 VP8/90000',
        'a=rtcp-fb:96 nack',
        'a=rtpmap:98 VP9/90000',
        'a=fmtp:98 profile-id=0',
        'm=audio 9 UDP/TLS/RTP/SAVPF 111 63',
        'a=rtpmap:111 opus/48000/2',
        'a=rtpmap:63 red/48000/2',
        '',
      ].join('\r\n'),
    );
  });

  it('leaves an offer without RTX as it is', () => {
    const plain = 'v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 VP8/90000\r\n';
    expect(withoutRtx(plain)).toBe(plain);
  });
});
