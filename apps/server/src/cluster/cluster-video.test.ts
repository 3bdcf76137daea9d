import { describe, expect, it } from 'vitest';
import { createLocalBus } from '../lib/bus.js';
import { remoteViewers } from './cluster-video.js';

describe('remoteViewers', () => {
  it('asks the owner of the machine’s shard, and the viewer id it hands out brings PATCH and DELETE back there', async () => {
    const bus = createLocalBus();
    const asked: string[] = [];
    // Machine 67 is in shard 3; its owner's media process calls the viewer "abcdefghijklmnopqrstuv".
    bus.respond('media.call.3', async (message) => {
      const call = message as { op: string; viewerId?: string };
      asked.push(`3:${call.op}:${call.viewerId ?? ''}`);
      return call.op === 'create' ? { viewerId: 'abcdefghijklmnopqrstuv', kind: 'answer', sdp: 'v=0', backend: 'janus' } : null;
    });
    const viewers = remoteViewers(bus);
    const created = await viewers.createViewer('grant', 67, 'v=0');
    expect(created.viewerId).toBe('s03abcdefghijklmnopqrstuv');
    await viewers.answerViewer(created.viewerId, 'v=0 answer');
    await viewers.deleteViewer(created.viewerId, 'leave');
    expect(asked).toEqual(['3:create:', '3:answer:abcdefghijklmnopqrstuv', '3:delete:abcdefghijklmnopqrstuv']);
    // An id not handed out here is unknown (404), not a failure of the media process.
    await expect(viewers.answerViewer('nothing-of-ours', 'v=0')).rejects.toMatchObject({ status: 404 });
    // No owner for the shard right now (a failover): 503, the browser's video retries.
    await expect(viewers.createViewer('grant', 5, 'v=0')).rejects.toMatchObject({ status: 503 });
  });
});
