/**
 * The media side answers as the DTLS server, and DTLS records that reach the ICE connection before
 * werift's DTLS server exists are handed to it once it does (dtls-early-records.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Event, RTCPeerConnection } from 'werift';
import { keepEarlyDtlsRecords } from './dtls-early-records.js';
import { MachineIngest } from './ingest.js';
import { Viewer } from './viewer.js';

type DtlsState = 'new' | 'connecting' | 'connected' | 'closed' | 'failed';

/** The few parts of a werift peer connection the shim touches. */
function fakePeer() {
  const onData = new Event<[Buffer]>();
  const transport = {
    state: 'new' as DtlsState,
    onStateChange: new Event<[DtlsState]>(),
    iceTransport: { connection: { onData } },
  };
  return { pc: { dtlsTransports: [transport] } as unknown as RTCPeerConnection, transport, onData };
}

const clientHello = Buffer.from([22, 0xfe, 0xfd, 1]);
const stunRequest = Buffer.from([0, 1, 0, 0]);

describe('keepEarlyDtlsRecords', () => {
  it('replays records held while the DTLS transport was new to the server created when it starts', async () => {
    const { pc, transport, onData } = fakePeer();
    keepEarlyDtlsRecords(pc);
    onData.execute(stunRequest);
    onData.execute(clientHello);
    const delivered: Buffer[] = [];
    // What werift's start() does: `connecting`, then (same run) the DTLS server subscribes.
    transport.state = 'connecting';
    transport.onStateChange.execute('connecting');
    onData.subscribe((buf) => delivered.push(buf));
    await Promise.resolve();
    expect(delivered).toEqual([clientHello]);
    // Later records are not held twice.
    onData.execute(clientHello);
    expect(delivered).toEqual([clientHello, clientHello]);
  });

  it('drops what it held when the transport closes instead of connecting', async () => {
    const { pc, transport, onData } = fakePeer();
    keepEarlyDtlsRecords(pc);
    onData.execute(clientHello);
    const delivered: Buffer[] = [];
    onData.subscribe((buf) => delivered.push(buf));
    transport.state = 'closed';
    transport.onStateChange.execute('closed');
    await Promise.resolve();
    expect(delivered).toEqual([]);
  });
});

describe('Viewer answer', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0)) await step();
  });

  it('takes the DTLS server role (setup:passive), so the browser starts the handshake', async () => {
    const browser = new RTCPeerConnection({ iceUseIpv6: false });
    cleanup.push(() => browser.close());
    browser.addTransceiver('video', { direction: 'recvonly' });
    browser.addTransceiver('audio', { direction: 'recvonly' });
    await browser.setLocalDescription(await browser.createOffer());
    expect(browser.localDescription!.sdp).toContain('a=setup:actpass');
    const ingest = new MachineIngest(1);
    await ingest.listen();
    cleanup.push(() => ingest.close());
    const viewer = new Viewer({
      machineId: 1,
      playerId: 2,
      ingest,
      iceServers: [],
      onClose: () => undefined,
    });
    cleanup.push(() => viewer.close('leave'));
    const answer = await viewer.answer(browser.localDescription!.sdp);
    expect(answer).toContain('a=setup:passive');
    expect(answer).not.toContain('a=setup:active');
  });
});
