/** The media control paths: what the server's client builds is what the media process matches. */
import { describe, expect, it } from 'vitest';
import { MediaControlPath, matchMediaPath, mediaPath, type MediaPathKind } from './media.js';

describe('media control paths', () => {
  it('builds each path with its parameters and matches it back', () => {
    expect(mediaPath('Ingests')).toBe('/ingests');
    expect(mediaPath('Ingest', { machineId: 7 })).toBe('/ingests/7');
    expect(mediaPath('Viewer', { viewerId: 'a b/c' })).toBe('/viewers/a%20b%2Fc');
    expect(matchMediaPath(mediaPath('Viewer', { viewerId: 'a b/c' }))).toEqual({
      kind: 'Viewer',
      params: { viewerId: 'a b/c' },
    });
    const samples: Record<MediaPathKind, string> = {
      Health: mediaPath('Health'),
      Ingests: mediaPath('Ingests'),
      Ingest: mediaPath('Ingest', { machineId: 3 }),
      Viewers: mediaPath('Viewers'),
      Viewer: mediaPath('Viewer', { viewerId: 'v-1' }),
      Stats: mediaPath('Stats'),
    };
    for (const kind of Object.keys(MediaControlPath) as MediaPathKind[])
      expect(matchMediaPath(samples[kind])?.kind, kind).toBe(kind);
  });

  it('matches nothing else, and ignores empty segments as the control server always did', () => {
    expect(matchMediaPath('/')).toBeNull();
    expect(matchMediaPath('/ingests/1/2')).toBeNull();
    expect(matchMediaPath('/viewers/%E0%A4%A')).toBeNull();
    expect(matchMediaPath('/nope')).toBeNull();
    expect(matchMediaPath('/ingests/')?.kind).toBe('Ingests');
    expect(matchMediaPath('//ingests//4')).toEqual({ kind: 'Ingest', params: { machineId: '4' } });
  });
});
