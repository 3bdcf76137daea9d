import { describe, expect, it, vi } from 'vitest';
import { whepSignaller } from './whep';

describe('whepSignaller', () => {
  it('resolves the viewer resource against the WHEP endpoint, which may be another host than the page', async () => {
    const fetchImpl = vi.fn(async () => new Response('v=0', { status: 201, headers: { location: '/api/media/whep/3/viewer1' } }));
    const signaller = whepSignaller('https://api.example.com/api/media/whep/3', () => 'grant', fetchImpl as typeof fetch);
    const result = await signaller.offer('v=0');
    expect(result.resourceUrl).toBe('https://api.example.com/api/media/whep/3/viewer1');
    await signaller.leave(result.resourceUrl!);
    expect(fetchImpl).toHaveBeenLastCalledWith('https://api.example.com/api/media/whep/3/viewer1', expect.objectContaining({ method: 'DELETE' }));
  });
});

describe('whepSignaller refusals', () => {
  it("carries the server's numeric catalogue code and its reason", async () => {
    const body = { status: false, code: 40303, ErrorMessage: 'The video permit is missing, expired or not for this machine', Params: { reason: 'expired' } };
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify(body), { status: 401, headers: { 'content-type': 'application/json' } }));
    const signaller = whepSignaller('/api/media/whep/3', () => 'grant', fetchImpl as typeof fetch);
    await expect(signaller.offer('v=0')).rejects.toMatchObject({ status: 401, code: 40303, reason: 'expired' });
  });

  it('keeps the status when a proxy answers without JSON', async () => {
    const fetchImpl = vi.fn(async () => new Response('<html>Bad Gateway</html>', { status: 502 }));
    const signaller = whepSignaller('/api/media/whep/3', () => 'grant', fetchImpl as typeof fetch);
    await expect(signaller.offer('v=0')).rejects.toMatchObject({ status: 502, code: 0, reason: 'offer_refused' });
  });
});
