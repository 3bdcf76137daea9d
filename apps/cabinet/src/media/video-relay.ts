/**
 * A loopback UDP hop for one machine's video, for an ffmpeg whose VP8 RTP carries 7-bit picture
 * IDs (ffmpeg-probe.ts `shortPictureIds`): ffmpeg sends its RTP and RTCP here, each RTP packet goes
 * on to the stream's target with the picture ID widened to 15 bits (vp8-picture-id.ts), RTCP goes
 * where ffmpeg would have sent it (the target port + 1). One relay lives as long as its machine's
 * stream, across encoder runs, so the picture IDs count on across restarts too.
 */
import dgram from 'node:dgram';
import { PictureIdWidener, isRtcp } from './vp8-picture-id.js';

interface RelayTarget {
  host: string;
  port: number;
}

export class VideoRelay {
  private readonly widener = new PictureIdWidener();
  packets = 0;

  private constructor(
    private readonly socket: dgram.Socket,
    private target: RelayTarget,
  ) {
    socket.on('message', (packet) => {
      if (isRtcp(packet)) {
        this.socket.send(packet, this.target.port + 1, this.target.host);
        return;
      }
      this.packets++;
      this.socket.send(this.widener.widen(packet), this.target.port, this.target.host);
    });
    // A send to a target that went away (the media process restarts) must not end the cabinet.
    socket.on('error', () => {});
  }

  static async open(target: RelayTarget): Promise<VideoRelay> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return new VideoRelay(socket, target);
  }

  /** Where ffmpeg sends (RTP and RTCP alike). */
  get via(): RelayTarget {
    return { host: '127.0.0.1', port: this.socket.address().port };
  }

  /** A new stream_start may name another ingest; the picture IDs count on. */
  retarget(target: RelayTarget): void {
    this.target = target;
  }

  close(): void {
    this.socket.close();
  }
}
