/**
 * werift 0.24 creates a peer connection's DTLS server only after its own side of ICE has
 * connected (transport/dtls.ts `start()`), and drops every DTLS record that arrives before: the
 * records reach the ICE connection's `onData`, which nothing reads for DTLS yet. The browser (ICE
 * controlling) usually finishes ICE first and sends its ClientHello at once, so that first
 * ClientHello was lost and the handshake waited for Chrome to resend it (~50 ms later on loopback,
 * longer on a link with more round-trip time). This keeps the records that arrive while the DTLS
 * transport is still `new` and hands them to the DTLS server as soon as it exists.
 */
import type { RTCPeerConnection } from 'werift';

/** More than a ClientHello and its resends; a bound so a stray sender cannot grow the queue. */
const MAX_HELD_RECORDS = 8;

/** RFC 7983 demultiplexing: a first byte of 20–63 is DTLS. */
function isDtlsRecord(buf: Buffer): boolean {
  return buf.length > 0 && buf[0]! >= 20 && buf[0]! <= 63;
}

/** Call after setRemoteDescription (the DTLS transports exist then) and before ICE can connect. */
export function keepEarlyDtlsRecords(pc: RTCPeerConnection): void {
  for (const dtls of pc.dtlsTransports) {
    if (dtls.state !== 'new') continue;
    const ice = dtls.iceTransport.connection;
    const held: Buffer[] = [];
    const data = ice.onData.subscribe((buf) => {
      if (dtls.state === 'new' && isDtlsRecord(buf) && held.length < MAX_HELD_RECORDS) held.push(buf);
    });
    const state = dtls.onStateChange.subscribe((next) => {
      if (next === 'new') return;
      data.unSubscribe();
      state.unSubscribe();
      if (next !== 'connecting' || held.length === 0) return;
      // `start()` sets `connecting` and then, in the same synchronous run, creates the DTLS server
      // that subscribes to the ICE connection: replay once that has happened.
      queueMicrotask(() => {
        for (const record of held.splice(0)) ice.onData.execute(record);
      });
    });
  }
}
