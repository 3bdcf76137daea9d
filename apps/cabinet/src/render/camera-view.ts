/**
 * The `camera` video type: the cabinet as a camera on the casino floor sees it (the topper with the
 * brand's title, the screen showing the live reels, the button deck, the side light strips) drawn
 * into a canvas of the band's size. The stream keeps its size and encoder; only the picture the
 * frame pump copies changes (ViewSwitch), so the media path does not know about views.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { CAMERA_BACKDROP, type VideoType } from '@reel/protocol';
import type { FrameSource } from '../media/frame-pump.js';
import type { CabinetRenderer, CabinetViewSource } from './renderer.js';

/** Designed at 640×360 like the screen, and scaled to the band's size. */
const DESIGN_W = 640;
const DESIGN_H = 360;
const FLOOR_Y = 300;
/** The cabinet's screen, a quarter-size copy of the live screen picture. */
const SCREEN = { x: 224, y: 78, w: 192, h: 108 } as const;
const LIGHTS_PER_SIDE = 8;
const LIGHT_STEP_MS = 160;
const BUTTONS = ['#e23b3b', '#f2c230', '#3bbf5a', '#3b8fe2', '#f0f0f0'] as const;

export class CameraView implements FrameSource {
  readonly canvas: Canvas;
  private readonly ctx: SKRSContext2D;
  private lightsKey = '';

  constructor(
    private readonly screen: CabinetRenderer,
    private readonly source: CabinetViewSource,
  ) {
    this.canvas = createCanvas(screen.width, screen.height);
    this.ctx = this.canvas.getContext('2d');
    this.ctx.scale(screen.width / DESIGN_W, screen.height / DESIGN_H);
  }

  /** Paints the cabinet when its screen or its lights changed; false when the picture is unchanged. */
  render(nowMs: number, force = false): boolean {
    const screenChanged = this.screen.render(nowMs);
    const step = this.chaseStep(nowMs);
    const lightsKey = `${step}|${this.spinLit()}`;
    if (!force && !screenChanged && lightsKey === this.lightsKey) return false;
    this.lightsKey = lightsKey;
    this.drawRoom();
    this.drawCabinet();
    this.drawLights(step);
    this.drawButtons();
    return true;
  }

  pixels(): Buffer {
    return this.canvas.data();
  }

  /** The lights chase while the machine plays by itself or shows a win, like the screen's bulbs. */
  private chaseStep(nowMs: number): number {
    const s = this.source;
    const busy = s.state === 'in_game' || s.state === 'in_bonus' || s.meters.autoplay || s.lastWin > 0;
    return busy ? Math.floor(nowMs / LIGHT_STEP_MS) : -1;
  }

  /** The spin button is lit while a press would play. */
  private spinLit(): boolean {
    const s = this.source;
    return s.state === 'idle' && s.meters.creditsCents > 0;
  }

  private drawRoom(): void {
    const ctx = this.ctx;
    ctx.fillStyle = CAMERA_BACKDROP;
    ctx.fillRect(0, 0, DESIGN_W, FLOOR_Y);
    const floor = ctx.createLinearGradient(0, FLOOR_Y, 0, DESIGN_H);
    floor.addColorStop(0, '#5a1f24');
    floor.addColorStop(1, '#2a0c10');
    ctx.fillStyle = floor;
    ctx.fillRect(0, FLOOR_Y, DESIGN_W, DESIGN_H - FLOOR_Y);
    // The camera's own overlay: recording dot and the machine it watches.
    ctx.fillStyle = '#ff2020';
    ctx.beginPath();
    ctx.arc(22, 20, 6, 0, Math.PI * 2);
    ctx.fill();
    ctx.font = 'bold 14px "DejaVu Sans Mono"';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#ffffff';
    ctx.fillText(`CAM ${this.source.machineId}`, 34, 21);
  }

  private drawCabinet(): void {
    const ctx = this.ctx;
    const art = this.screen.artwork;
    // Seen from a little below, the body widens towards the floor.
    const body = ctx.createLinearGradient(190, 0, 450, 0);
    body.addColorStop(0, '#101014');
    body.addColorStop(0.5, '#34343c');
    body.addColorStop(1, '#101014');
    ctx.fillStyle = body;
    ctx.beginPath();
    ctx.moveTo(206, 30);
    ctx.lineTo(434, 30);
    ctx.lineTo(448, FLOOR_Y + 20);
    ctx.lineTo(192, FLOOR_Y + 20);
    ctx.closePath();
    ctx.fill();
    // Topper with the brand's marquee and title.
    const topper = ctx.createLinearGradient(0, 30, 0, 66);
    topper.addColorStop(0, art.marquee[0]);
    topper.addColorStop(1, art.marquee[1]);
    ctx.fillStyle = topper;
    ctx.beginPath();
    ctx.roundRect(212, 34, 216, 32, 8);
    ctx.fill();
    ctx.font = 'bold 16px "DejaVu Sans"';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = art.trim;
    ctx.fillText(art.title, DESIGN_W / 2, 50, 200);
    // The screen in its bezel, showing what the player would see on the screen view.
    ctx.fillStyle = '#000000';
    ctx.fillRect(SCREEN.x - 6, SCREEN.y - 6, SCREEN.w + 12, SCREEN.h + 12);
    ctx.drawImage(this.screen.canvas, SCREEN.x, SCREEN.y, SCREEN.w, SCREEN.h);
    // Belly glass under the deck, in the brand's background.
    const belly = ctx.createLinearGradient(0, 246, 0, 292);
    belly.addColorStop(0, art.background[0]);
    belly.addColorStop(1, art.background[1]);
    ctx.fillStyle = belly;
    ctx.fillRect(214, 246, 212, 46);
    ctx.strokeStyle = art.trim;
    ctx.lineWidth = 2;
    ctx.strokeRect(214, 246, 212, 46);
  }

  private drawLights(step: number): void {
    const ctx = this.ctx;
    [200, 440].forEach((x, side) => {
      for (let i = 0; i < LIGHTS_PER_SIDE; i++) {
        const lit = step < 0 ? i % 2 === 0 : (i + side * 2 + step) % 4 === 0;
        ctx.fillStyle = lit ? '#fff6b0' : '#6b5a20';
        ctx.beginPath();
        ctx.arc(x, 76 + i * 22, lit ? 4 : 3, 0, Math.PI * 2);
        ctx.fill();
      }
    });
  }

  private drawButtons(): void {
    const ctx = this.ctx;
    // The deck juts out towards the camera.
    ctx.fillStyle = '#202026';
    ctx.beginPath();
    ctx.moveTo(214, 206);
    ctx.lineTo(426, 206);
    ctx.lineTo(440, 238);
    ctx.lineTo(200, 238);
    ctx.closePath();
    ctx.fill();
    const spinLit = this.spinLit();
    BUTTONS.forEach((colour, i) => {
      const spin = i === 0;
      ctx.globalAlpha = spin && !spinLit ? 0.45 : 1;
      ctx.fillStyle = colour;
      ctx.beginPath();
      ctx.ellipse(246 + i * 37, 222, spin ? 14 : 11, spin ? 8 : 6, 0, 0, Math.PI * 2);
      ctx.fill();
    });
    ctx.globalAlpha = 1;
  }
}

/**
 * What the frame pump copies: the screen or the camera picture, as set now. A switch repaints at
 * once (the pump would otherwise repeat the other view's last frame while nothing moves).
 */
export class ViewSwitch implements FrameSource {
  private shown: VideoType;

  constructor(
    private readonly screen: CabinetRenderer,
    private readonly camera: CameraView,
    private readonly view: () => VideoType,
  ) {
    this.shown = view();
  }

  render(nowMs: number): boolean {
    const view = this.view();
    const switched = view !== this.shown;
    this.shown = view;
    if (view === 'camera') return this.camera.render(nowMs, switched);
    return this.screen.render(nowMs) || switched;
  }

  pixels(): Buffer {
    return this.shown === 'camera' ? this.camera.pixels() : this.screen.pixels();
  }
}
