/**
 * The last second of one stream's RTP packets, by sequence number: what a NACK can still ask for.
 * One buffer per ingest stream, shared by all its viewers (they get the same sequence numbers:
 * werift only rewrites SSRC and payload type). werift's own per-sender history is 128 packets,
 * less than one keyframe burst plus the frames after it at 1.2 Mbit/s, so the viewer answers NACKs
 * from here instead (viewer.ts).
 *
 * A packet older than `maxAgeMs` is not sent again: with zero playout delay the browser has shown
 * (or skipped) that frame long before, and a late copy only costs bandwidth on a link that is
 * already losing packets.
 */
const RETRANSMIT_SLOTS = 1024;
const RETRANSMIT_MAX_AGE_MS = 1000;

interface Slot {
  seq: number;
  atMs: number;
  packet: Buffer;
}

export class RetransmitBuffer {
  private readonly slots: (Slot | undefined)[];
  stored = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly size = RETRANSMIT_SLOTS,
    private readonly maxAgeMs = RETRANSMIT_MAX_AGE_MS,
  ) {
    this.slots = new Array<Slot | undefined>(size);
  }

  /** Keeps an RTP packet (as forwarded) under its sequence number, replacing the one 'size' ago. */
  push(packet: Buffer, nowMs: number): void {
    const seq = packet.readUInt16BE(2);
    this.slots[seq % this.size] = { seq, atMs: nowMs, packet };
    this.stored++;
  }

  /** The packet with this sequence number if still held and young enough, else undefined. */
  get(seq: number, nowMs: number): Buffer | undefined {
    const slot = this.slots[seq % this.size];
    if (!slot || slot.seq !== seq || nowMs - slot.atMs > this.maxAgeMs) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return slot.packet;
  }

  clear(): void {
    this.slots.fill(undefined);
  }
}
