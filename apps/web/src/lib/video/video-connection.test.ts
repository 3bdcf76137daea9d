/**
 * The offer is made while the grant is on its way and sent the moment it arrives; an offer made
 * with other ICE servers than the grant names is made again. A fake peer connection records calls.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Signaller } from './whep';
import { VideoConnection, type VideoGrant } from './video-connection';

const log: string[] = [];

class FakePeerConnection {
  static made: FakePeerConnection[] = [];
  localDescription: { sdp: string } | null = null;
  connectionState = 'new';
  iceGatheringState = 'complete';
  ontrack: unknown = null;
  onconnectionstatechange: unknown = null;
  closed = false;
  readonly id = FakePeerConnection.made.length + 1;
  constructor(readonly config: RTCConfiguration) {
    FakePeerConnection.made.push(this);
    log.push(`pc${this.id} ice=${JSON.stringify(config.iceServers)}`);
  }
  addTransceiver() {}
  addEventListener() {}
  removeEventListener() {}
  async createOffer() {
    return { type: 'offer', sdp: `offer-${this.id}` };
  }
  async setLocalDescription(description: { sdp: string }) {
    this.localDescription = description;
    log.push(`pc${this.id} offer ready`);
  }
  async setRemoteDescription(description: { type: string }) {
    log.push(`pc${this.id} ${description.type} applied`);
  }
  async createAnswer() {
    return { type: 'answer', sdp: `answer-${this.id}` };
  }
  close() {
    this.closed = true;
  }
}

function grantOf(iceServers: RTCIceServer[]): VideoGrant {
  return {
    grant: 'g',
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
    whepUrl: '/whep/1',
    iceServers,
  };
}

function connectionWith(grant: Promise<VideoGrant>, serverOffers = false) {
  const signaller: Signaller = {
    offer: async (sdp) => {
      log.push(`sent ${sdp}`);
      return serverOffers
        ? { kind: 'offer', sdp: 'server offer', resourceUrl: '/whep/1/v' }
        : { kind: 'answer', sdp: 'answer', resourceUrl: '/whep/1/v' };
    },
    answer: async (_url, sdp) => void log.push(`sent ${sdp}`),
    leave: async () => undefined,
    beacon: () => undefined,
  };
  return new VideoConnection({ grant: () => grant, signaller: () => signaller, releaseOnPageHide: false });
}

beforeEach(() => {
  log.length = 0;
  FakePeerConnection.made = [];
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('MediaStream', class {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('VideoConnection', () => {
  it('makes its offer before the grant arrives and sends it once the grant is there', async () => {
    let giveGrant!: (grant: VideoGrant) => void;
    const connection = connectionWith(new Promise((resolve) => (giveGrant = resolve)));
    const connecting = connection.connect();
    await vi.waitFor(() => expect(log).toContain('pc1 offer ready'));
    expect(log.some((line) => line.startsWith('sent'))).toBe(false);
    giveGrant(grantOf([]));
    await connecting;
    expect(log).toEqual(['pc1 ice=[]', 'pc1 offer ready', 'sent offer-1', 'pc1 answer applied']);
    connection.close();
  });

  it('makes the offer again when the grant names other ICE servers', async () => {
    const turn = [{ urls: 'turn:turn.example:3478', username: 'u', credential: 'c' }];
    const connection = connectionWith(Promise.resolve(grantOf(turn)));
    await connection.connect();
    expect(FakePeerConnection.made[0]!.closed).toBe(true);
    expect(log.filter((line) => line.startsWith('sent'))).toEqual(['sent offer-2']);
    expect(log).toContain(`pc2 ice=${JSON.stringify(turn)}`);
    connection.close();
  });

  it('sends nothing when closed while waiting for the grant', async () => {
    let giveGrant!: (grant: VideoGrant) => void;
    const connection = connectionWith(new Promise((resolve) => (giveGrant = resolve)));
    const connecting = connection.connect();
    connection.close();
    giveGrant(grantOf([]));
    await connecting;
    expect(FakePeerConnection.made[0]!.closed).toBe(true);
    expect(log.some((line) => line.startsWith('sent'))).toBe(false);
  });

  it("answers a server's offer (Janus 1.1.2) without waiting for its host candidates", async () => {
    // No timer ever fires: a wait for ICE gathering (bounded by a timer) would never end.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    class StillGathering extends FakePeerConnection {
      override iceGatheringState = 'gathering';
    }
    vi.stubGlobal('RTCPeerConnection', StillGathering);
    const connection = connectionWith(Promise.resolve(grantOf([])), true);
    await connection.connect();
    const pc = FakePeerConnection.made.length;
    expect(log.slice(-3)).toEqual([`pc${pc} offer applied`, `pc${pc} offer ready`, `sent answer-${pc}`]);
    connection.close();
  });
});
