import { describe, expect, it } from 'vitest';
import { brandArt } from '@reel/protocol';
import { SlotMachine } from '../game/machine.js';
import { CabinetRenderer } from './renderer.js';
import { decodeTimestampStrip } from '@reel/protocol/timestamp-strip';
import { SoundMixer, SAMPLES_PER_CHUNK } from './sound.js';

describe('renderer', () => {
  it('redraws only when something changed and shows the reels moving during a spin', async () => {
    const m = new SlotMachine({ machineId: 9, timing: { spinDurationMs: 400, reelStaggerMs: 50 } });
    const r = new CabinetRenderer(m, { width: 640, height: 360 });
    const t = 1_000_000;
    await m.execute({ commandId: 'c', type: 'credit_in', amountCents: 1000 });
    expect(r.render(t)).toBe(true);
    expect(r.render(t + 1)).toBe(false);
    const idle = Buffer.from(r.pixels());
    const spin = m.execute({ commandId: 's', type: 'spin' });
    // The reels start once the game's outcome is committed to the machine's memory.
    while (!m.activeSpin) await new Promise((resolve) => setTimeout(resolve, 1));
    const start = m.activeSpin.startedAtMs;
    expect(r.render(start + 100)).toBe(true);
    const moving = Buffer.from(r.pixels());
    let differing = 0;
    for (let i = 0; i < idle.length; i += 4) if (idle[i] !== moving[i]) differing++;
    expect(differing).toBeGreaterThan(10_000);
    await spin;
    m.dispose();
  });

  it('encodes the render time in the timestamp strip, readable back at both band sizes', () => {
    const m = new SlotMachine({ machineId: 9 });
    for (const [w, h] of [
      [640, 360],
      [426, 240],
    ] as const) {
      const r = new CabinetRenderer(m, { width: w, height: h, timestampStrip: true });
      const t = Date.now();
      r.render(t);
      expect(decodeTimestampStrip(r.pixels(), w, w, t + 40)).toBe(t);
    }
    m.dispose();
  });
});

describe("the brand's look", () => {
  /** The marquee's colour just above its title (design 320,15). */
  const marqueePixel = (r: CabinetRenderer) => {
    const i = (Math.round((15 * r.height) / 360) * r.width + Math.round((320 * r.width) / 640)) * 4;
    return [...r.pixels().subarray(i, i + 3)];
  };
  const hex = (colour: string) => [1, 3, 5].map((k) => parseInt(colour.slice(k, k + 2), 16));
  const near = (a: number[], b: number[]) => a.every((v, k) => Math.abs(v - b[k]!) <= 24);

  it("paints the machine's own brand, never another brand's title, and switches when told", () => {
    const m = new SlotMachine({ machineId: 4 });
    const neutral = new CabinetRenderer(m, { width: 640, height: 360 });
    expect(neutral.brandTitle).not.toBe('LUCKY REELS');
    const r = new CabinetRenderer(m, { width: 640, height: 360, art: brandArt('Golden Reels') });
    expect(r.brandTitle).toBe('GOLDEN REELS');
    r.render(1_000);
    expect(near(marqueePixel(r), hex(brandArt('Golden Reels').marquee[0]))).toBe(true);
    r.setArt(brandArt('Fruit Palace'));
    expect(r.render(1_001)).toBe(true);
    expect(r.brandTitle).toBe('FRUIT PALACE');
    expect(near(marqueePixel(r), hex(brandArt('Fruit Palace').marquee[0]))).toBe(true);
    expect(near(hex(brandArt('Golden Reels').marquee[0]), hex(brandArt('Fruit Palace').marquee[0]))).toBe(false);
    m.dispose();
  });
});

describe('sound', () => {
  it('produces silence when idle and signal when a cue plays', () => {
    const mixer = new SoundMixer();
    const silent = mixer.render(SAMPLES_PER_CHUNK);
    expect(silent.length).toBe(SAMPLES_PER_CHUNK * 2);
    expect(silent.every((b) => b === 0)).toBe(true);
    mixer.play('win');
    const loud = mixer.render(SAMPLES_PER_CHUNK * 5);
    let peak = 0;
    for (let i = 0; i < loud.length; i += 2) peak = Math.max(peak, Math.abs(loud.readInt16LE(i)));
    expect(peak).toBeGreaterThan(3000);
  });
});
