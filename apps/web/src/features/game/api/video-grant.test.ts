import { afterEach, describe, expect, it } from 'vitest';
import { setRuntimeSettingsForTest } from '@/config/runtime-settings';
import { videoGrant } from './video-grant';

const grant = { grant: 'g', expiresAt: '', whepUrl: '/api/media/whep/3', iceServers: [{ urls: 'stun:stun.example.org' }] };

describe('videoGrant', () => {
  afterEach(() => setRuntimeSettingsForTest({}));

  it('asks the WHEP endpoint on the backend API_URL names', () => {
    setRuntimeSettingsForTest({ API_URL: 'https://api.example.com/api/' });
    expect(videoGrant(grant)).toEqual({ ...grant, whepUrl: 'https://api.example.com/api/media/whep/3' });
  });

  it('asks the page host while API_URL is a path', () => {
    setRuntimeSettingsForTest({ API_URL: '/api/' });
    expect(videoGrant(grant).whepUrl).toBe(`${window.location.origin}/api/media/whep/3`);
  });
});
