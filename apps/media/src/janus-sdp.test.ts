import { describe, expect, it } from 'vitest';
import { withoutStreamNames } from './janus-sdp.js';

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
