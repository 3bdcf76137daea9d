/**
 * A spectator's grant beside the player's on the werift forwarder: both viewers live side by side
 * (a watch grant never replaces the player's viewer), a second watch grant of the same account
 * replaces only its own older spectator viewer, and the stats name the spectator's role (so the band
 * control leaves it out).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RTCPeerConnection } from 'werift';
import { signGrant } from '@reel/media-control';
import { Forwarder } from './forwarder.js';

const SECRET = 'forwarder-roles-secret';
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function offer(): Promise<string> {
  const pc = new RTCPeerConnection({});
  cleanups.push(() => pc.close());
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return pc.localDescription!.sdp;
}

describe('forwarder: spectator grants', () => {
  it('a watch grant never replaces the player, and is listed with its role', async () => {
    const forwarder = new Forwarder({ secret: SECRET, iceServers: [] });
    cleanups.push(() => forwarder.close());
    await forwarder.createIngest(1);
    const closed: string[] = [];
    forwarder.on('viewer_closed', (e) => closed.push(`${e.viewerId}:${e.reason}`));
    const play = signGrant(SECRET, { playerId: 7, machineId: 1 }).token;
    const watch = () => signGrant(SECRET, { playerId: 7, machineId: 1, role: 'watch' }).token;

    const player = await forwarder.createViewer(play, 1, await offer());
    const spectator = await forwarder.createViewer(watch(), 1, await offer());
    expect(closed).toEqual([]);
    const roles = Object.fromEntries(forwarder.stats().viewers.map((v) => [v.viewerId, v.role ?? 'play']));
    expect(roles).toEqual({ [player.viewerId]: 'play', [spectator.viewerId]: 'watch' });

    const again = await forwarder.createViewer(watch(), 1, await offer());
    expect(closed).toEqual([`${spectator.viewerId}:replaced`]);
    expect(forwarder.stats().viewers.map((v) => v.viewerId).sort()).toEqual([player.viewerId, again.viewerId].sort());
  });
});
