import { describe, expect, it } from 'vitest';
import { CAMERA_BACKDROP } from '@reel/protocol';
import type { VideoType } from '@reel/protocol';
import { SlotMachine } from '../game/machine.js';
import { CameraView, ViewSwitch } from './camera-view.js';
import { CabinetRenderer } from './renderer.js';

const hex = (colour: string) => [1, 3, 5].map((k) => parseInt(colour.slice(k, k + 2), 16));
/** The pixel at a point of the 640×360 design, whatever the band's size. */
const pixel = (rgba: Buffer, width: number, height: number, x: number, y: number) => {
  const i = (Math.round((y * height) / 360) * width + Math.round((x * width) / 640)) * 4;
  return [...rgba.subarray(i, i + 3)];
};
const near = (a: number[], b: number[], tolerance = 8) => a.every((v, k) => Math.abs(v - b[k]!) <= tolerance);

describe('the camera view', () => {
  it('shows the screen or the whole cabinet as set, and repaints at once on a switch', () => {
    const m = new SlotMachine({ machineId: 5 });
    for (const [w, h] of [
      [640, 360],
      [426, 240],
    ] as const) {
      const screen = new CabinetRenderer(m, { width: w, height: h });
      let view: VideoType = 'screen';
      const views = new ViewSwitch(screen, new CameraView(screen, m), () => view);
      expect(views.render(1_000)).toBe(true);
      // Beside the cabinet: the screen's bulb column there, the room's wall on the camera.
      expect(near(pixel(views.pixels(), w, h, 40, 180), hex(CAMERA_BACKDROP))).toBe(false);
      expect(views.render(1_001)).toBe(false);

      view = 'camera';
      // Nothing moved on the machine, yet the switch is a new picture.
      expect(views.render(1_002)).toBe(true);
      expect(near(pixel(views.pixels(), w, h, 40, 180), hex(CAMERA_BACKDROP))).toBe(true);
      expect(views.render(1_003)).toBe(false);

      view = 'screen';
      expect(views.render(1_004)).toBe(true);
      expect(near(pixel(views.pixels(), w, h, 40, 180), hex(CAMERA_BACKDROP))).toBe(false);
    }
    m.dispose();
  });

  it("shows the live screen on the cabinet's screen and the brand on its topper", async () => {
    const m = new SlotMachine({ machineId: 6, timing: { spinDurationMs: 400, reelStaggerMs: 50 } });
    const screen = new CabinetRenderer(m, { width: 640, height: 360 });
    const camera = new CameraView(screen, m);
    await m.execute({ commandId: 'c', type: 'credit_in', amountCents: 1000 });
    camera.render(1_000_000);
    const idle = Buffer.from(camera.pixels());
    // The topper's gradient starts in the marquee's first colour.
    expect(near(pixel(idle, 640, 360, 226, 36), hex(screen.artwork.marquee[0]), 40)).toBe(true);
    const spin = m.execute({ commandId: 's', type: 'spin' });
    while (!m.activeSpin) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(camera.render(m.activeSpin.startedAtMs + 100)).toBe(true);
    const moving = camera.pixels();
    // The reels turn inside the small screen (224..416 × 78..186).
    let inside = 0;
    for (let y = 78; y < 186; y++)
      for (let x = 224; x < 416; x++) {
        const i = (y * 640 + x) * 4;
        if (idle[i] !== moving[i] || idle[i + 1] !== moving[i + 1]) inside++;
      }
    expect(inside).toBeGreaterThan(2_000);
    await spin;
    m.dispose();
  });
});
