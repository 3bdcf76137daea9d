/**
 * A WHEP viewer in node (werift): signals like the web app (POST the offer with the grant; answers
 * the server's own offer for Janus) and counts the RTP packets it receives; it decodes nothing, so
 * a browser's decoding cost does not weigh on the machine being measured.
 */
import { RTCPeerConnection as NodePeerConnection, SrtpAuthenticationError } from 'werift';

interface WhepViewer {
  counter: { packets: number };
  close(): Promise<void>;
}

/**
 * After its first packet, a count-only viewer counts every SRTP packet that reaches its transport
 * and drops it undecrypted (werift's own path for a packet that fails authentication): hundreds of
 * them fit in one node process, where decrypting viewers saturate it near 150 and stop keeping up.
 */
function countOnly(peer: NodePeerConnection, counter: { packets: number }) {
  const dropped = new SrtpAuthenticationError('counted, not decrypted');
  for (const transceiver of peer.getTransceivers()) {
    const dtls = transceiver.dtlsTransport as unknown as { srtp: { decrypt(data: Buffer): Buffer } };
    dtls.srtp = {
      decrypt: () => {
        counter.packets++;
        throw dropped;
      },
    };
  }
}

/**
 * Attaches to `whepUrl` (absolute) with a stream grant. `decrypt: false` makes it a count-only
 * viewer (countOnly above): the media path's cost is the same, the viewer's is a fraction.
 */
export async function attachWhepViewer(whepUrl: string, grant: string, timeoutMs = 10_000, { decrypt = true } = {}): Promise<WhepViewer> {
  let pc = new NodePeerConnection({});
  const counter = { packets: 0 };
  const watch = (peer: NodePeerConnection) =>
    peer.onTrack.subscribe((track) =>
      track.onReceiveRtp.subscribe(() => {
        counter.packets++;
        if (!decrypt && counter.packets === 1) countOnly(peer, counter);
      }),
    );
  watch(pc);
  let resource: string | null = null;
  const close = async () => {
    if (resource) await fetch(resource, { method: 'DELETE', signal: AbortSignal.timeout(timeoutMs) }).catch(() => undefined);
    await pc.close().catch(() => undefined);
  };
  try {
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    await pc.setLocalDescription(await pc.createOffer());
    const res = await fetch(whepUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${grant}` },
      body: pc.localDescription!.sdp,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.status !== 200 && res.status !== 201) throw new Error(`WHEP ${res.status}`);
    const location = res.headers.get('location');
    resource = location ? new URL(location, whepUrl).toString() : null;
    const sdp = await res.text();
    if (res.headers.get('x-sdp-kind') === 'offer') {
      await pc.close();
      pc = new NodePeerConnection({});
      watch(pc);
      await pc.setRemoteDescription({ type: 'offer', sdp });
      await pc.setLocalDescription(await pc.createAnswer());
      if (!resource) throw new Error('no viewer resource for the answer');
      const patched = await fetch(resource, { method: 'PATCH', headers: { 'content-type': 'application/sdp' }, body: pc.localDescription!.sdp, signal: AbortSignal.timeout(timeoutMs) });
      if (!patched.ok) throw new Error(`answer ${patched.status}`);
    } else await pc.setRemoteDescription({ type: 'answer', sdp });
  } catch (error) {
    await close();
    throw error;
  }
  return { counter, close };
}
