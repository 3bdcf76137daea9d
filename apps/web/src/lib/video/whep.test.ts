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
