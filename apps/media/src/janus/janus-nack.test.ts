/**
 * The scale path's Janus answers NACKs the way a lossy link needs (docs/video.md, "Janus NACK bug
 * report"): a real Janus (the NACK-fixed build, or `JANUS_BIN`) behind the real adapter, RTP sent
 * into its mountpoint from a UDP socket, and a werift peer as the viewer that NACKs packets it got
 * (as if they were lost) and counts what comes back. Skipped, with the reason printed, only where
 * the build is absent (`npm test` builds it when run as root: apps/media/src/janus/janus-build.ts).
 */
import dgram from 'node:dgram';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenericNack, RTCPeerConnection, RtcpRrPacket, RtcpTransportLayerFeedback, type MediaStreamTrack } from 'werift';
import { signGrant } from '@reel/media-control';
import { JanusBackend } from './janus.js';
import { chooseJanus, describeJanus } from './janus-install.js';
import { vp8Packet } from '../testing/vp8-packet.js';

const SECRET = 'janus-nack-test-secret-0123456789';
const MACHINE = 1;
const choice = chooseJanus();
const absent =
  choice.what.startsWith('Debian') || !existsSync(choice.bin)
    ? `the NACK-fixed Janus is not built (${choice.bin}: ${choice.what}); npm test builds it as root`
    : '';
if (absent) console.log(`janus NACK test: skipped, ${absent}`);
else console.log(`janus NACK test: RAN ${describeJanus(choice)}`);

describe.skipIf(Boolean(absent))('Janus answers NACKs', () => {
  let janus: JanusBackend;
  let viewer: RTCPeerConnection;
  let track: MediaStreamTrack;
  const sender = dgram.createSocket('udp4');
  let videoPort = 0;
  let seq = 1000;
  let ts = 90_000;
  /** Every video sequence number the viewer received, in order, retransmissions included. */
  const received: number[] = [];

  beforeAll(async () => {
    janus = new JanusBackend({ secret: SECRET, iceServers: [], janusBin: choice.bin });
    await janus.start();
    videoPort = (await janus.createIngest(MACHINE)).videoPort;
    const { token } = signGrant(SECRET, { playerId: 7, machineId: MACHINE });
    let resolveTrack: (t: MediaStreamTrack) => void = () => {};
    const gotTrack = new Promise<MediaStreamTrack>((resolve) => (resolveTrack = resolve));
    viewer = new RTCPeerConnection({});
    viewer.onTrack.subscribe((t) => t.kind === 'video' && resolveTrack(t));
    viewer.addTransceiver('video', { direction: 'recvonly' });
    viewer.addTransceiver('audio', { direction: 'recvonly' });
    await viewer.setLocalDescription(await viewer.createOffer());
    // As the web app signals (video-connection.ts): an answer from Janus 1.1.4+, an offer from older ones.
    const reply = await janus.createViewer(token, MACHINE, viewer.localDescription!.sdp);
    if (reply.kind === 'answer') await viewer.setRemoteDescription({ type: 'answer', sdp: reply.sdp });
    else {
      await viewer.close();
      viewer = new RTCPeerConnection({});
      viewer.onTrack.subscribe((t) => t.kind === 'video' && resolveTrack(t));
      await viewer.setRemoteDescription({ type: 'offer', sdp: reply.sdp });
      await viewer.setLocalDescription(await viewer.createAnswer());
      await janus.answerViewer(reply.viewerId, viewer.localDescription!.sdp);
    }
    track = await gotTrack;
    track.onReceiveRtp.subscribe((rtp) => received.push(rtp.header.sequenceNumber));
    // Frames until the viewer's first packets arrive (ICE and DTLS first), one packet each.
    for (let i = 0; i < 300 && received.length < 5; i++) await sendFrame(i === 0);
    expect(received.length).toBeGreaterThanOrEqual(5);
    // Janus keeps no packets for retransmission until it has a round trip from the viewer's
    // receiver reports (its per-viewer queue length starts at 0 ms): probe with a NACK of the
    // latest packet every 250 ms until one is answered.
    for (let i = 0; i < 60; i++) {
      for (let f = 0; f < 25; f++) await sendFrame();
      const probe = received.at(-1)!;
      await nack([probe]);
      await sleep(100);
      if (timesReceived(probe) > 1) return;
    }
    throw new Error('Janus answered no NACK within 15 s (no round trip from the receiver reports?)');
  }, 40_000);

  afterAll(async () => {
    sender.close();
    await viewer?.close();
    await janus?.close();
  });

  async function sendFrame(key = false): Promise<void> {
    const packet = vp8Packet(seq++, (ts += 3000), { start: true, key, ssrc: 0x1234 });
    await new Promise<void>((resolve, reject) => sender.send(packet, videoPort, '127.0.0.1', (e) => (e ? reject(e) : resolve())));
    await sleep(10);
  }

  /** One RTCP compound like Chrome's: a receiver report, then a generic NACK listing `lost`. */
  async function nack(lost: number[]): Promise<void> {
    const mediaSourceSsrc = track.ssrc!;
    const senderSsrc = 0x5eed;
    await viewer.getTransceivers()[0]!.receiver.dtlsTransport.sendRtcp([
      new RtcpRrPacket({ ssrc: senderSsrc, reports: [] }),
      new RtcpTransportLayerFeedback({ feedback: new GenericNack({ senderSsrc, mediaSourceSsrc, lost }) }),
    ]);
  }

  const timesReceived = (s: number) => received.filter((r) => r === s).length;

  it('resends every packet NACKed in one feedback message, again when NACKed 100 ms later, and the ones after a packet skipped by the back-off', async () => {
    const before = received.length;
    for (let i = 0; i < 20; i++) await sendFrame();
    await sleep(100);
    const sent = received.slice(before);
    expect(sent.length).toBe(20);
    // Six "lost" packets in one NACK, apart and side by side (one PID with its BLP bits, and several PIDs).
    const lost = [sent[2]!, sent[3]!, sent[4]!, sent[9]!, sent[12]!, sent[17]!];
    await nack(lost);
    await sleep(100);
    expect(lost.map(timesReceived)).toEqual(lost.map(() => 2));
    // Chrome asks again about 100 ms later when a retransmission was lost too (it has no round-trip
    // estimate as a receive-only peer): Janus 1.1.2 refused for 200 ms, the fixed build backs off from 40 ms.
    await nack(lost);
    // At once a third NACK: the packets just resent are inside their back-off (80 ms after a second
    // retransmission) and are skipped, each followed by one NACKed for the first time, which must be
    // served all the same. The upstream loop's extra pop in that skip branch threw the next one away.
    const fresh = [sent[5]!, sent[13]!];
    await nack([sent[4]!, fresh[0]!, sent[12]!, fresh[1]!]);
    await sleep(100);
    expect(lost.map(timesReceived)).toEqual(lost.map(() => 3));
    expect(fresh.map(timesReceived)).toEqual([2, 2]);
  });
});
