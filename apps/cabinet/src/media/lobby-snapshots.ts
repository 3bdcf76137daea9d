/**
 * Stills of each machine's screen for the lobby's machine pictures: every SNAPSHOT_INTERVAL_MS, a
 * small renderer of its own (so it works with or without a running video stream) paints the
 * machine as it is now and the JPEG goes to the server over the agent channel.
 */
import { SNAPSHOT_INTERVAL_MS, SNAPSHOT_SIZE, type BrandArt } from '@reel/protocol';
import { CabinetRenderer, type CabinetViewSource } from '../render/renderer.js';

interface SnapshotSink {
  isAuthed(machineId: number): boolean;
  sendSnapshot(machineId: number, jpeg: Buffer): void;
}

const JPEG_QUALITY = 70;

export class LobbySnapshots {
  private readonly renderers = new Map<number, CabinetRenderer>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly machines: readonly CabinetViewSource[],
    private readonly sink: SnapshotSink,
    private readonly intervalMs = SNAPSHOT_INTERVAL_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    // A still that cannot be taken only costs the lobby a fresh picture; the next round tries again.
    this.timer = setInterval(() => void this.takeAll().catch(() => {}), this.intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  setArt(machineId: number, art: BrandArt): void {
    this.renderer(machineId)?.setArt(art);
  }

  /** One still of every connected machine now (also used right after a machine connects). */
  async takeAll(): Promise<void> {
    for (const machine of this.machines) await this.take(machine.machineId);
  }

  async take(machineId: number): Promise<void> {
    if (!this.sink.isAuthed(machineId)) return;
    const renderer = this.renderer(machineId);
    if (!renderer) return;
    renderer.render(Date.now());
    this.sink.sendSnapshot(machineId, await renderer.canvas.encode('jpeg', JPEG_QUALITY));
  }

  private renderer(machineId: number): CabinetRenderer | undefined {
    let renderer = this.renderers.get(machineId);
    const machine = this.machines.find((m) => m.machineId === machineId);
    if (!renderer && machine) {
      renderer = new CabinetRenderer(machine, { ...SNAPSHOT_SIZE });
      this.renderers.set(machineId, renderer);
    }
    return renderer;
  }
}
