/**
 * Draws the cabinet as a player sees it: marquee, bulbs, five reels that spin and land with an
 * overshoot, win lines, credit/bet/win meters, free-spin counter, attract mode when idle.
 *
 * The canvas keeps its pixels between frames, so each frame only repaints the layers whose
 * content changed (reels while moving or when the shown win line changes, meters when a value
 * changes, bulbs when the chase steps). An idle frame with nothing new costs nothing but the copy.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import {
  brandArt,
  type AgentMachineState,
  type BrandArt,
  type MachineMeters,
} from '@reel/protocol';
import { PAYLINES, REELS, REEL_STRIPS, ROWS } from '@reel/protocol';
import type { ActiveSpin } from '../game/machine-types.js';
import { CELL_H, DESIGN_H, DESIGN_W, REEL_PITCH, REEL_W, REEL_X0, REEL_Y, WINDOW_H } from './cabinet-layout.js';
import { drawBulbs, drawCabinetFrame, drawMeterPanel } from './cabinet-panels.js';
import { renderSymbolBitmaps } from './symbols.js';
import { drawTimestampStrip } from './timestamp-strip.js';

/** Everything the renderer reads from the machine. */
export interface CabinetViewSource {
  readonly machineId: number;
  readonly state: AgentMachineState;
  readonly meters: MachineMeters;
  readonly activeSpin: ActiveSpin | null;
  readonly lastWin: number;
}

interface RendererOptions {
  width: number;
  height: number;
  /** The brand's title and colours (the server names the brand when the machine authenticates). */
  art?: BrandArt;
  timestampStrip?: boolean;
  currencySymbol?: string;
}

const CHASE_STEP_MS = 110;
const WIN_LINE_STEP_MS = 700;
const LINE_COLOURS = ['#ff3b3b', '#3bff6f', '#3bb6ff', '#ffe23b', '#ff3bf0', '#3bfff0', '#ff9a3b', '#b03bff'];

const easeOutBack = (u: number): number => {
  const c1 = 1.1;
  const c3 = c1 + 1;
  return 1 + c3 * (u - 1) ** 3 + c1 * (u - 1) ** 2;
};

interface ReelMotion {
  from: number;
  distance: number;
  startMs: number;
  endMs: number;
}

export class CabinetRenderer {
  readonly canvas: Canvas;
  private readonly ctx: SKRSContext2D;
  private readonly scale: number;
  private readonly symbols: Canvas[];
  private readonly opts: Required<Omit<RendererOptions, 'art'>>;
  private art: BrandArt;
  private restStops: number[];
  private motions: (ReelMotion | null)[] = new Array<ReelMotion | null>(REELS).fill(null);
  private seenSpin: ActiveSpin | null = null;
  private reelsKey = '';
  private metersKey = '';
  private bulbsKey = '';
  private fullRedraw = true;
  timestampStrip: boolean;

  constructor(
    private readonly source: CabinetViewSource,
    options: RendererOptions,
  ) {
    this.opts = { timestampStrip: false, currencySymbol: '₺', ...options };
    // Until the server names the brand, a neutral marquee (no other brand's name).
    this.art = options.art ?? brandArt('');
    this.timestampStrip = this.opts.timestampStrip;
    this.canvas = createCanvas(options.width, options.height);
    this.ctx = this.canvas.getContext('2d');
    this.scale = options.width / DESIGN_W;
    this.ctx.scale(this.scale, options.height / DESIGN_H);
    this.symbols = renderSymbolBitmaps((REEL_W - 6) * this.scale, (CELL_H - 4) * this.scale);
    // A fresh cabinet shows a random-looking but fixed screen.
    this.restStops = REEL_STRIPS.map((s, r) => (r * 7 + source.machineId * 5) % s.length);
  }

  /** Repaints the cabinet in another brand's look from the next frame on. */
  setArt(art: BrandArt): void {
    if (art.title === this.art.title && art.marquee[0] === this.art.marquee[0]) return;
    this.art = art;
    this.fullRedraw = true;
  }

  get brandTitle(): string {
    return this.art.title;
  }

  get artwork(): BrandArt {
    return this.art;
  }

  get width(): number {
    return this.canvas.width;
  }
  get height(): number {
    return this.canvas.height;
  }

  /** Paints what changed since the last frame; returns false when the picture is unchanged. */
  render(nowMs: number = Date.now()): boolean {
    const ctx = this.ctx;
    let changed = false;
    if (this.fullRedraw) {
      drawCabinetFrame(this.ctx, this.art, this.source.machineId);
      this.fullRedraw = false;
      this.reelsKey = this.metersKey = this.bulbsKey = '';
      changed = true;
    }
    this.trackSpin();
    const moving = this.motions.some((m) => m !== null && nowMs < m.endMs);
    const attract = this.isAttract();
    const winPhase = this.winLinePhase(nowMs);
    const reelsKey = moving
      ? `m${nowMs}`
      : `r${this.restStops.join()}|${winPhase}|${attract ? Math.floor(nowMs / 600) % 2 : 'x'}`;
    if (reelsKey !== this.reelsKey) {
      this.reelsKey = reelsKey;
      this.drawReels(nowMs, winPhase, attract);
      changed = true;
    }
    const m = this.source.meters;
    const metersKey = `${m.creditsCents}|${m.betCents}|${this.source.lastWin}|${m.freeSpinsLeft}|${m.autoplay}|${this.source.state}`;
    if (metersKey !== this.metersKey) {
      this.metersKey = metersKey;
      drawMeterPanel(this.ctx, this.source, this.opts.currencySymbol);
      changed = true;
    }
    const chase = attract || this.source.state === 'in_bonus' || (this.source.lastWin > 0 && !moving);
    const bulbsKey = chase ? `c${Math.floor(nowMs / CHASE_STEP_MS)}` : 'still';
    if (bulbsKey !== this.bulbsKey) {
      this.bulbsKey = bulbsKey;
      drawBulbs(this.ctx, chase ? Math.floor(nowMs / CHASE_STEP_MS) : -1);
      changed = true;
    }
    if (this.timestampStrip) {
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      drawTimestampStrip(ctx, this.canvas.width, nowMs);
      ctx.restore();
      changed = true;
    }
    return changed;
  }

  /** Raw RGBA pixels. A live view of the canvas: copy before the next render if kept. */
  pixels(): Buffer {
    return this.canvas.data();
  }

  async png(): Promise<Buffer> {
    return this.canvas.encode('png');
  }

  private isAttract(): boolean {
    const s = this.source;
    return s.state === 'idle' && s.meters.creditsCents === 0 && s.activeSpin === null;
  }

  private trackSpin(): void {
    const spin = this.source.activeSpin;
    if (!spin || spin === this.seenSpin) return;
    this.seenSpin = spin;
    const stops = spin.evaluation.stops;
    this.motions = stops.map((stop, r) => {
      const len = REEL_STRIPS[r]!.length;
      const from = this.restStops[r]!;
      // Symbols move down, so the top index decreases; travel whole turns plus the remainder
      // that lands exactly on the drawn stop.
      const distance = len * (1 + Math.floor(r / 2)) + ((((from - stop) % len) + len) % len);
      return { from, distance, startMs: spin.startedAtMs, endMs: spin.reelStopAtMs[r]! };
    });
    this.restStops = [...stops];
  }

  private reelPosition(r: number, nowMs: number): number {
    const m = this.motions[r];
    const endMs = m ? Math.min(m.endMs, this.source.activeSpin?.reelStopAtMs[r] ?? m.endMs) : 0;
    if (!m || nowMs >= endMs) return this.restStops[r]!;
    const u = Math.max(0, (nowMs - m.startMs) / Math.max(1, m.endMs - m.startMs));
    return m.from - m.distance * easeOutBack(u);
  }

  /** Which win line to highlight now (-1 for all, null for none). */
  private winLinePhase(nowMs: number): number | null {
    const spin = this.source.activeSpin;
    if (!spin || spin.winCents === 0) return null;
    const landed = spin.reelStopAtMs[REELS - 1]!;
    if (nowMs < landed) return null;
    const lines = spin.evaluation.lineWins.length;
    if (lines === 0) return -1;
    const step = Math.floor((nowMs - landed) / WIN_LINE_STEP_MS);
    return step === 0 ? -1 : (step - 1) % lines;
  }

  private drawReels(nowMs: number, winPhase: number | null, attract: boolean): void {
    const ctx = this.ctx;
    const sym = this.symbols;
    const cellW = REEL_W - 6;
    const cellH = CELL_H - 4;
    for (let r = 0; r < REELS; r++) {
      const x = REEL_X0 + r * REEL_PITCH;
      const strip = REEL_STRIPS[r]!;
      const len = strip.length;
      const pos = this.reelPosition(r, nowMs);
      const moving = pos !== this.restStops[r];
      ctx.save();
      ctx.beginPath();
      ctx.rect(x, REEL_Y, REEL_W, WINDOW_H);
      ctx.clip();
      const face = ctx.createLinearGradient(0, REEL_Y, 0, REEL_Y + WINDOW_H);
      face.addColorStop(0, '#b9b9c6');
      face.addColorStop(0.5, '#ffffff');
      face.addColorStop(1, '#b9b9c6');
      ctx.fillStyle = face;
      ctx.fillRect(x, REEL_Y, REEL_W, WINDOW_H);
      const top = Math.floor(pos);
      const frac = pos - top;
      for (let k = -1; k <= ROWS; k++) {
        const idx = (((top + k) % len) + len) % len;
        const y = REEL_Y + (k - frac) * CELL_H + 2;
        ctx.globalAlpha = moving ? 0.75 : 1;
        ctx.drawImage(sym[strip[idx]!]!, x + 3, y, cellW, cellH);
      }
      ctx.globalAlpha = 1;
      ctx.restore();
    }
    // Reel separators.
    ctx.fillStyle = '#000';
    for (let r = 1; r < REELS; r++) ctx.fillRect(REEL_X0 + r * REEL_PITCH - 3, REEL_Y, 3, WINDOW_H);
    if (winPhase !== null) this.drawWinLines(winPhase);
    if (attract && Math.floor(nowMs / 600) % 2 === 0) {
      ctx.fillStyle = 'rgba(0,0,0,0.55)';
      ctx.fillRect(REEL_X0, REEL_Y + WINDOW_H / 2 - 26, REEL_PITCH * REELS - 3, 52);
      ctx.font = 'bold 30px "DejaVu Sans"';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = '#ffe27a';
      ctx.fillText('INSERT CREDIT  •  PLAY NOW', DESIGN_W / 2, REEL_Y + WINDOW_H / 2);
    }
  }

  private drawWinLines(phase: number): void {
    const spin = this.source.activeSpin;
    if (!spin) return;
    const ctx = this.ctx;
    const wins = spin.evaluation.lineWins;
    const shown = phase === -1 ? wins : wins.slice(phase, phase + 1);
    ctx.lineWidth = 4;
    ctx.lineJoin = 'round';
    for (const w of shown) {
      const colour = LINE_COLOURS[w.line % LINE_COLOURS.length]!;
      const rows = PAYLINES[w.line]!;
      ctx.strokeStyle = colour;
      ctx.beginPath();
      rows.forEach((row, r) =>
        ctx.lineTo(REEL_X0 + r * REEL_PITCH + REEL_W / 2, REEL_Y + row * CELL_H + CELL_H / 2),
      );
      ctx.stroke();
      if (phase !== -1) {
        ctx.lineWidth = 3;
        for (let r = 0; r < w.count; r++)
          ctx.strokeRect(
            REEL_X0 + r * REEL_PITCH + 2,
            REEL_Y + rows[r]! * CELL_H + 2,
            REEL_W - 4,
            CELL_H - 4,
          );
        ctx.lineWidth = 4;
      }
    }
    if (spin.evaluation.scatterCount >= 3 && phase === -1) {
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 3;
      spin.evaluation.grid.forEach((col, r) =>
        col.forEach((s, row) => {
          if (s === 9)
            ctx.strokeRect(REEL_X0 + r * REEL_PITCH + 2, REEL_Y + row * CELL_H + 2, REEL_W - 4, CELL_H - 4);
        }),
      );
    }
  }
}
